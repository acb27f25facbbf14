/**
 * Replica selection for consumers (KIP-392, Kafka's ReplicaSelector): given where a consumer is
 * (its `client.rack`) and the replicas that could serve it, which one should it fetch from.
 * `replica.selector.class` names a Java class in Kafka; Sluice maps the class names it knows to
 * built-in selectors: unset, the leader serves every consumer (Kafka's default), and
 * RackAwareReplicaSelector prefers a replica in the consumer's rack. Pure values and functions.
 */
import type { BrokerId } from "../common/index.js";

/** Kafka's rack-aware selector, the one class name `replica.selector.class` accepts. */
export const RACK_AWARE_REPLICA_SELECTOR_CLASS =
  "org.apache.kafka.common.replica.RackAwareReplicaSelector";

/** What the broker knows of the consumer that fetches (Kafka's ClientMetadata). */
export interface ClientMetadata {
  /** `client.rack` from Fetch v11+; empty when the consumer did not set one. */
  readonly rackId: string;
  /** The listener the fetch arrived on; a preferred replica must be reachable on it. */
  readonly listenerName: string;
}

/** One replica that could serve a consumer (Kafka's ReplicaView). */
export interface ReplicaView {
  readonly brokerId: BrokerId;
  /** The broker's `broker.rack`, or null. */
  readonly rack: string | null;
  readonly logEndOffset: number;
  /** How long ago the replica was last caught up with the leader; 0 for the leader. */
  readonly timeSinceLastCaughtUpMs: number;
}

/** The candidates of one partition (Kafka's PartitionView): the leader is among `replicas`. */
export interface PartitionView {
  readonly replicas: readonly ReplicaView[];
  readonly leader: ReplicaView;
}

/** Chooses the replica a consumer should read from. */
export interface ReplicaSelector {
  select(client: ClientMetadata, partition: PartitionView): ReplicaView;
}

/**
 * Kafka's RackAwareReplicaSelector: the leader when the consumer has no rack, no replica shares
 * it, or the leader does; else the most caught-up replica of the consumer's rack.
 */
export const rackAwareReplicaSelector: ReplicaSelector = {
  select(client, partition) {
    if (client.rackId === "") return partition.leader;
    const sameRack = partition.replicas.filter((replica) => replica.rack === client.rackId);
    if (sameRack.length === 0) return partition.leader;
    if (sameRack.some((replica) => replica.brokerId === partition.leader.brokerId)) {
      return partition.leader;
    }
    return sameRack.reduce((best, replica) =>
      compareCaughtUp(replica, best) > 0 ? replica : best,
    );
  },
};

/**
 * Kafka's ReplicaView.comparator, "most caught up" last: the higher log end offset, then the
 * shorter time since last caught up, then the higher broker id, so that ties resolve the same way
 * on every call.
 */
function compareCaughtUp(a: ReplicaView, b: ReplicaView): number {
  if (a.logEndOffset !== b.logEndOffset) return a.logEndOffset - b.logEndOffset;
  if (a.timeSinceLastCaughtUpMs !== b.timeSinceLastCaughtUpMs) {
    return b.timeSinceLastCaughtUpMs - a.timeSinceLastCaughtUpMs;
  }
  return a.brokerId - b.brokerId;
}

/**
 * The selector `replica.selector.class` names: undefined when unset (only the leader serves, and
 * Fetch responses never name a preferred read replica). The config check refuses other names.
 */
export function replicaSelectorOf(className: string | null): ReplicaSelector | undefined {
  if (className === null) return undefined;
  if (className === RACK_AWARE_REPLICA_SELECTOR_CLASS) return rackAwareReplicaSelector;
  throw new RangeError(`no built-in replica selector for class ${className}`);
}
