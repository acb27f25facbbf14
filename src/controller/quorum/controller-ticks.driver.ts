/**
 * The quorum controller's own clock work, on one timer every `livenessScanIntervalMs`:
 *
 * - the liveness scan and the preferred-leader rebalance (active controller only), when
 *   periodic-schedule.ts says each is due;
 * - a metadata snapshot whenever the loader says one is due (every node, active or not, since
 *   each voter snapshots its own copy of the log); the check runs on the tick, so a snapshot
 *   starts within one tick of becoming due;
 * - a retry of an activation batch that Raft refused.
 */
import type { MetadataLoader } from "../../metadata/index.js";
import { imageToRecords } from "../../metadata/index.js";
import type { Clock, Logger, Timer, Timers } from "../../ports/index.js";
import { encodeMetadataRecord } from "../../protocol/index.js";
import type { ControllerRaft } from "./controller-raft.js";
import type { QuorumControllerSettings } from "./controller-settings.js";
import type { ControllerOperation } from "./operation.js";
import { leaderRebalanceOperation, livenessScanOperation } from "./periodic-operations.js";
import { PeriodicSchedule } from "./periodic-schedule.js";

/** The part of the quorum controller the ticks drive. */
export interface TickedController {
  readonly isActive: boolean;
  readonly metadataLoader: MetadataLoader;
  submit<Response>(operation: ControllerOperation<Response>): Promise<Response>;
  retryActivation(): void;
  track(work: Promise<void>): void;
}

/** What the ticks use besides the controller. */
export interface TickOptions {
  readonly raft: ControllerRaft;
  readonly settings: QuorumControllerSettings;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
}

/** The timer-driven work of one controller. */
export class ControllerTicks {
  private timer: Timer | undefined;
  private isStopped = false;
  private isSnapshotting = false;
  private readonly schedule: PeriodicSchedule;

  constructor(
    private readonly controller: TickedController,
    private readonly options: TickOptions,
  ) {
    this.schedule = new PeriodicSchedule(options.settings.leaderRebalance);
  }

  /** Arms the timer. */
  start(): void {
    this.arm();
  }

  /** Cancels the timer for good. */
  stop(): void {
    this.isStopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** The controller became active: the first rebalance check is one interval away, as Kafka's. */
  activated(): void {
    this.schedule.activated(this.options.clock.monotonicMs());
  }

  private arm(): void {
    if (this.isStopped) return;
    this.timer = this.options.timers.schedule(this.options.settings.livenessScanIntervalMs, () =>
      this.tick(),
    );
  }

  private tick(): void {
    this.timer = undefined;
    if (this.isStopped) return;
    this.arm();
    const nowMs = this.options.clock.monotonicMs();
    this.controller.retryActivation();
    if (this.controller.isActive) {
      const due = this.schedule.dueOnTick(nowMs);
      if (due.scan) this.queueLivenessScan();
      if (due.rebalance) this.queueLeaderRebalance();
    }
    this.maybeSnapshot(nowMs);
  }

  private queueLivenessScan(): void {
    this.controller.track(
      this.controller
        .submit(livenessScanOperation())
        .finally(() => this.schedule.scanEnded())
        .then((outcome) => {
          if (outcome.kind === "scanned" && outcome.fencedBrokerIds.length > 0) {
            this.options.logger.warn("fenced brokers whose session ended", {
              brokerIds: outcome.fencedBrokerIds,
            });
          }
        }),
    );
  }

  private queueLeaderRebalance(): void {
    this.controller.track(
      this.controller
        .submit(leaderRebalanceOperation())
        .finally(() => this.schedule.rebalanceEnded())
        .then((outcome) => this.schedule.rebalanceChecked(outcome)),
    );
  }

  private maybeSnapshot(nowMs: number): void {
    if (this.isSnapshotting) return;
    const loader = this.controller.metadataLoader;
    const decision = loader.snapshotDecision(nowMs);
    if (decision.kind === "notDue") return;
    const image = decision.image;
    const records = imageToRecords(image).map((record) => encodeMetadataRecord(record));
    const endOffset = image.provenance.lastContainedOffset + 1;
    this.isSnapshotting = true;
    const request = {
      endOffset,
      lastContainedLogTimestamp: this.options.clock.nowMs(),
      records,
    };
    this.controller.track(
      this.options.raft
        .createSnapshot(request)
        .finally(() => {
          this.isSnapshotting = false;
        })
        .then((result) => {
          if (result.ok) {
            loader.snapshotWritten(this.options.clock.monotonicMs());
            this.options.logger.info("metadata snapshot written", {
              endOffset,
              reason: decision.reason,
            });
          } else {
            this.options.logger.warn("metadata snapshot not written", {
              endOffset,
              why: result.reason,
            });
          }
        }),
    );
  }
}
