/**
 * The quorum controller's state shared by the files that run it: the driver class
 * (quorum-controller.driver.ts), the running of queued operations (operation-running.driver.ts)
 * and the activation (activation.driver.ts). Only those files change it, all on the node's event
 * loop.
 */
import type { MetadataImage, MetadataLoader } from "../../metadata/index.js";
import type { Clock, Logger, MetricsSink, Random, Timers } from "../../ports/index.js";
import type { BrokerHeartbeats, PartitionHooks } from "../cluster/index.js";
import type { ElectionReport } from "../election/index.js";
import type { ActivationStep } from "./activation.js";
import type { ControllerMetrics } from "./controller-metrics.js";
import type { ControllerRaft, LeaderAndEpoch } from "./controller-raft.js";
import type { QuorumControllerSettings } from "./controller-settings.js";
import type { ControllerOperation } from "./operation.js";
import type { PendingCompletions } from "./pending-completions.js";

/** Everything a quorum controller is built from. */
export interface QuorumControllerOptions {
  readonly raft: ControllerRaft;
  readonly settings: QuorumControllerSettings;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
  readonly logger: Logger;
  readonly metrics: MetricsSink;
}

/** Where the controller stands; see the state diagram in quorum-controller.driver.ts. */
export type ControllerState =
  | { readonly kind: "inactive"; readonly leader: LeaderAndEpoch }
  | {
      readonly kind: "activating";
      readonly epoch: number;
      readonly step: ActivationStep;
      /** The last offset of the step's batch once proposed; undefined while not (yet) accepted. */
      readonly awaitedOffset: number | undefined;
    }
  | { readonly kind: "active"; readonly epoch: number };

/** An operation in the queue with the promise that waits for its answer. */
export interface QueuedEntry {
  readonly operation: ControllerOperation<unknown>;
  readonly enqueuedAtMs: number;
  resolve(response: unknown): void;
  reject(error: unknown): void;
}

/** The controller's mutable state and the parts it is built from. */
export interface ControllerCore {
  readonly options: QuorumControllerOptions;
  readonly nodeId: number;
  readonly loader: MetadataLoader;
  readonly metrics: ControllerMetrics;
  readonly hooks: PartitionHooks;
  /** Elections the partition hooks reported while computing the current write. */
  readonly hookElections: ElectionReport[];
  readonly queue: QueuedEntry[];
  readonly pending: PendingCompletions;
  state: ControllerState;
  /** The committed image plus every write proposed and not committed yet. */
  latest: MetadataImage;
  heartbeats: BrokerHeartbeats;
  /** The offset the next proposed batch is expected to start at. */
  nextWriteOffset: number;
  lastCommittedOffset: number;
  /** Bumped whenever leadership is claimed or lost, so late proposal answers are recognised. */
  generation: number;
  proposalsInFlight: number;
  isStopped: boolean;
}
