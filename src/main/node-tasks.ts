/**
 * The periodic work of a broker (Kafka's KafkaScheduler tasks): the log manager's tasks
 * (flush, checkpoints, retention, the cleaner, deleting `-delete` folders) when they fall due,
 * and the ISR shrink check every `replica.lag.time.max.ms / 2`, as Kafka's ReplicaManager runs
 * it. One timer, re-armed after each round; a round never overlaps the previous one.
 */
import { AssertionError } from "../common/index.js";
import type { Clock, Logger, Timer, Timers } from "../ports/index.js";
import type { ReplicaManager } from "../replication/index.js";
import type { LogManager } from "../storage/index.js";

/** The longest sleep between two rounds, so that a stopped clock source cannot stall them. */
const ROUND_INTERVAL_MAX_MS = 1000;

export interface NodeTasksOptions {
  readonly logManager: LogManager;
  readonly replicaManager: ReplicaManager;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly replicaLagTimeMaxMs: number;
  /** Told when a round fails with a broken invariant: the process must end. */
  readonly onFatalError: (error: unknown) => void;
}

/** The periodic rounds of one node; see the file comment. */
export class NodeTasks {
  private timer: Timer | undefined;
  private round: Promise<void> = Promise.resolve();
  private isStopped = false;
  private nextIsrCheckAtMs: number;

  constructor(private readonly options: NodeTasksOptions) {
    this.nextIsrCheckAtMs = options.clock.monotonicMs() + this.isrCheckIntervalMs();
  }

  /** Arms the first round. */
  start(): void {
    this.arm();
  }

  /** Cancels the timer and waits for a round under way to end. */
  async stop(): Promise<void> {
    this.isStopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    await this.round;
  }

  private isrCheckIntervalMs(): number {
    return Math.max(1, Math.floor(this.options.replicaLagTimeMaxMs / 2));
  }

  private arm(): void {
    if (this.isStopped) return;
    const { clock, logManager } = this.options;
    const untilTasksMs = logManager.nextTaskDueAtMs() - clock.nowMs();
    const untilIsrCheckMs = this.nextIsrCheckAtMs - clock.monotonicMs();
    const delayMs = Math.max(0, Math.min(untilTasksMs, untilIsrCheckMs, ROUND_INTERVAL_MAX_MS));
    this.timer = this.options.timers.schedule(delayMs, () => {
      this.timer = undefined;
      this.round = this.runRound().finally(() => this.arm());
    });
  }

  private async runRound(): Promise<void> {
    const { clock, logManager, replicaManager, logger } = this.options;
    try {
      if (clock.monotonicMs() >= this.nextIsrCheckAtMs) {
        this.nextIsrCheckAtMs = clock.monotonicMs() + this.isrCheckIntervalMs();
        replicaManager.maybeShrinkIsrs(clock.nowMs());
      }
      if (logManager.nextTaskDueAtMs() <= clock.nowMs()) {
        await logManager.runPeriodicTasks(clock.nowMs());
      }
    } catch (error) {
      if (error instanceof AssertionError) {
        this.isStopped = true;
        this.options.onFatalError(error);
        return;
      }
      // An I/O failure has already taken its log dir offline; the next round runs on.
      logger.error("periodic task failed", { error: String(error) });
    }
  }
}
