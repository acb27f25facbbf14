/**
 * The role of a local replica (Kafka's Partition fields leaderReplicaIdOpt, leaderEpoch,
 * partitionEpoch, assignment and ISR state) as a discriminated union, so that leader-only data
 * (the ISR, the followers' fetch states, the epoch start offset) exists only for a leader.
 *
 * Transitions: none → leader | follower; leader ⇄ follower on new metadata; any → offline when
 * the log's dir fails (final for this object: the replica manager recreates the partition).
 */
import type { BrokerId } from "../common/index.js";
import type { IsrState } from "./isr-state.js";
import type { FollowerReplicaState } from "./replica-state.js";

/** The epochs every role carries (-1 before the first metadata). */
interface Epochs {
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
}

/** This broker leads the partition. */
export interface LeaderRole extends Epochs {
  readonly kind: "leader";
  /** The replicas in assignment order, this broker included. */
  readonly replicas: readonly BrokerId[];
  /**
   * The log end offset when this leader epoch began. A follower must reach it to join the ISR:
   * below it, it may miss records the previous leader committed.
   */
  readonly leaderEpochStartOffset: number;
  readonly isrState: IsrState;
  /** Every other replica's fetch state, by broker id. */
  readonly followers: ReadonlyMap<BrokerId, FollowerReplicaState>;
}

/** Another broker leads; this one replicates from it. */
export interface FollowerRole extends Epochs {
  readonly kind: "follower";
  /** The leader's broker id, or -1 (NO_LEADER) while the partition has none. */
  readonly leaderId: BrokerId;
  readonly replicas: readonly BrokerId[];
}

export type PartitionRole =
  | LeaderRole
  | FollowerRole
  /** Created, no metadata applied yet. */
  | ({ readonly kind: "none" } & Epochs)
  /** The log's dir failed: every request gets KAFKA_STORAGE_ERROR. */
  | ({ readonly kind: "offline" } & Epochs);
