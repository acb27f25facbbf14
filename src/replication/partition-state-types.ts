/**
 * What a partition state is built from and the outcomes of its steps (partition-state.ts): a
 * role change and the record of a follower's fetch.
 */
import type { BrokerId } from "../common/index.js";
import type { PartitionIdentity } from "./isr-decisions.js";
import type { AlterPartitionItem } from "./isr-state.js";

/** What a partition state is built from. */
export interface PartitionStateOptions extends PartitionIdentity {
  /** `replica.lag.time.max.ms`. */
  readonly replicaLagTimeMaxMs: number;
  /** The topic's `min.insync.replicas`. */
  readonly minInsyncReplicas: number;
  /** The local log's offsets when the replica is created. */
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  /** The replication-offset checkpoint's value, if any; clamped into the log's range. */
  readonly highWatermarkCheckpoint: number | undefined;
  /**
   * Whether a follower may join the ISR, given the broker epoch of its last fetch: Kafka's KRaft
   * rule is that the broker is neither fenced nor in controlled shutdown and its registered epoch
   * matches (or the fetch carried -1). Defaults to always.
   */
  readonly isReplicaEligible?: (replicaId: BrokerId, brokerEpoch: number) => boolean;
}

/** The outcome of a become-leader or become-follower step. */
export type RoleChange =
  /** The registration is older than the state's partition epoch: nothing changed. */
  | { readonly kind: "skipped" }
  | {
      readonly kind: "changed";
      readonly isNewLeaderEpoch: boolean;
      /** Whether this broker was not the leader before (leader changes only). */
      readonly isNewLeader: boolean;
      readonly highWatermarkChanged: boolean;
    };

/** The outcome of recording a follower's fetch. */
export type FollowerFetchUpdate =
  /** The replica is not one of the partition's replicas (or this broker is not the leader). */
  | { readonly kind: "unknownReplica" }
  | {
      readonly kind: "updated";
      readonly highWatermarkChanged: boolean;
      /** An ISR expansion to send to the controller, when the follower caught up. */
      readonly alterPartition: AlterPartitionItem | undefined;
    };
