/**
 * The quorum controller's own clock work, on one timer every `livenessScanIntervalMs`:
 *
 * - the liveness scan (active controller only): brokers whose session ended are fenced, so a
 *   silent broker is fenced within `broker.session.timeout.ms` plus one tick;
 * - the preferred-leader rebalance (active only) once every
 *   `leader.imbalance.check.interval.seconds`, and again on the next tick while the capped
 *   check says more elections remain;
 * - a metadata snapshot whenever the loader says one is due (every node, active or not, since
 *   each voter snapshots its own copy of the log); the check runs on the tick, so a snapshot
 *   starts within one tick of becoming due;
 * - a retry of an activation batch that Raft refused.
 */
import type { MetadataLoader } from "../../metadata/index.js";
import { imageToRecords } from "../../metadata/index.js";
import type { Clock, Logger, Timer, Timers } from "../../ports/index.js";
import { encodeMetadataRecord } from "../../protocol/index.js";
import { leaderImbalanceCheckIntervalMs } from "../election/index.js";
import type { ControllerRaft } from "./controller-raft.js";
import type { QuorumControllerSettings } from "./controller-settings.js";
import type { ControllerOperation } from "./operation.js";
import { leaderRebalanceOperation, livenessScanOperation } from "./periodic-operations.js";

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
  private isScanQueued = false;
  private isRebalanceQueued = false;
  private isSnapshotting = false;
  private nextRebalanceMs = Infinity;

  constructor(
    private readonly controller: TickedController,
    private readonly options: TickOptions,
  ) {}

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
    this.nextRebalanceMs =
      this.options.clock.monotonicMs() +
      leaderImbalanceCheckIntervalMs(this.options.settings.leaderRebalance);
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
      this.maybeScan();
      if (nowMs >= this.nextRebalanceMs) this.maybeRebalance(nowMs);
    }
    this.maybeSnapshot(nowMs);
  }

  private maybeScan(): void {
    if (this.isScanQueued) return;
    this.isScanQueued = true;
    this.controller.track(
      this.controller
        .submit(livenessScanOperation())
        .finally(() => {
          this.isScanQueued = false;
        })
        .then((outcome) => {
          if (outcome.kind === "scanned" && outcome.fencedBrokerIds.length > 0) {
            this.options.logger.warn("fenced brokers whose session ended", {
              brokerIds: outcome.fencedBrokerIds,
            });
          }
        }),
    );
  }

  private maybeRebalance(nowMs: number): void {
    const settings = this.options.settings.leaderRebalance;
    if (this.isRebalanceQueued || !settings.autoLeaderRebalanceEnable) return;
    this.isRebalanceQueued = true;
    this.nextRebalanceMs = nowMs + leaderImbalanceCheckIntervalMs(settings);
    this.controller.track(
      this.controller
        .submit(leaderRebalanceOperation())
        .finally(() => {
          this.isRebalanceQueued = false;
        })
        .then((outcome) => {
          // The check is capped; what remains is checked again on the next tick.
          if (outcome.kind === "checked" && outcome.hasMore) this.nextRebalanceMs = 0;
        }),
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
