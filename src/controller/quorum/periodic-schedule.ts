/**
 * When the active controller's periodic writes (periodic-operations.ts) are due, asked on each
 * tick of its timer (every `livenessScanIntervalMs`):
 *
 * - the liveness scan on every tick, so a silent broker is fenced within
 *   `broker.session.timeout.ms` plus one tick;
 * - with `auto.leader.rebalance.enable`, the preferred-leader rebalance once every
 *   `leader.imbalance.check.interval.seconds`, the first one interval after activation as in
 *   Kafka, and again on the next tick while the capped check says more elections remain.
 *
 * Neither is queued again before the last one queued ended. Pure: the driver passes the time,
 * queues what is due and reports when each write ended.
 */
import type { LeaderRebalanceSettings } from "../election/index.js";
import { leaderImbalanceCheckIntervalMs } from "../election/index.js";
import type { RebalanceOutcome } from "./periodic-operations.js";

/** The writes one tick queues. */
export interface DuePeriodicWrites {
  readonly scan: boolean;
  readonly rebalance: boolean;
}

export class PeriodicSchedule {
  private isScanQueued = false;
  private isRebalanceQueued = false;
  private nextRebalanceMs = Infinity;

  constructor(private readonly settings: LeaderRebalanceSettings) {}

  activated(nowMs: number): void {
    this.nextRebalanceMs = nowMs + leaderImbalanceCheckIntervalMs(this.settings);
  }

  /** The writes due on a tick of the active controller; they count as queued until they end. */
  dueOnTick(nowMs: number): DuePeriodicWrites {
    const scan = !this.isScanQueued;
    const rebalance =
      nowMs >= this.nextRebalanceMs &&
      !this.isRebalanceQueued &&
      this.settings.autoLeaderRebalanceEnable;
    if (scan) this.isScanQueued = true;
    if (rebalance) {
      this.isRebalanceQueued = true;
      this.nextRebalanceMs = nowMs + leaderImbalanceCheckIntervalMs(this.settings);
    }
    return { scan, rebalance };
  }

  /** The queued scan was answered or failed. */
  scanEnded(): void {
    this.isScanQueued = false;
  }

  /** The queued rebalance was answered or failed. */
  rebalanceEnded(): void {
    this.isRebalanceQueued = false;
  }

  /** The answer of a rebalance: a check the cap cut short is due again on the next tick. */
  rebalanceChecked(outcome: RebalanceOutcome): void {
    if (outcome.kind === "checked" && outcome.hasMore) this.nextRebalanceMs = 0;
  }
}
