/**
 * Fetch from the closest replica (KIP-392), the leader's side: which replica a consumer should
 * read from instead of the leader (Kafka's ReplicaManager.findPreferredReadReplica), and the
 * answer that tells it so. Pure: the partition's role, the image and the time come as arguments.
 */
import { ErrorCode, type BrokerId } from "../common/index.js";
import type { BrokerRegistration } from "../metadata/index.js";
import type { PartitionRole } from "./partition-role.js";
import type { ReadOutcome } from "./partition-results.js";
import type { ClientMetadata, ReplicaSelector, ReplicaView } from "./replica-selector.js";

/** The leader's side of the choice: this broker, its role, committed ISR and log end offset. */
export interface LeaderReplica {
  readonly brokerId: BrokerId;
  readonly role: PartitionRole;
  readonly isr: readonly BrokerId[];
  readonly logEndOffset: number;
}

/** What the choice depends on besides the partition. */
export interface ReadReplicaContext {
  readonly selector: ReplicaSelector;
  readonly client: ClientMetadata;
  /** The fetcher's replica id: followers replicate from the leader, never elsewhere. */
  readonly replicaId: number;
  readonly fetchOffset: number;
  readonly nowMs: number;
  /** A broker's registration in the current image. */
  readonly broker: (brokerId: BrokerId) => BrokerRegistration | undefined;
}

/**
 * Whether a fetch may only be served by the leader (Kafka's FetchParams.fetchOnlyLeader):
 * followers' fetches, and consumers' before Fetch v11, which carry no client metadata. Other
 * consumers may read from any replica up to its high watermark.
 */
export function isFetchOnlyFromLeader(
  replicaId: number,
  client: ClientMetadata | undefined,
): boolean {
  return replicaId >= 0 || (replicaId === -1 && client === undefined);
}

/**
 * The replica a consumer should read from when it is not the leader, else undefined. Candidates
 * are the ISR members whose log holds the fetch offset (a lagging follower could keep the
 * consumer behind forever) and the leader; one is only named when it is a live broker with the
 * listener the fetch came on, so that the consumer can reach it.
 */
export function findPreferredReadReplica(
  leader: LeaderReplica,
  context: ReadReplicaContext,
): BrokerId | undefined {
  const role = leader.role;
  if (role.kind !== "leader" || context.replicaId >= 0) return undefined;
  const reachable = (brokerId: BrokerId): BrokerRegistration | undefined => {
    const broker = context.broker(brokerId);
    if (broker === undefined || broker.isFenced) return undefined;
    const hasListener = broker.listeners.some(({ name }) => name === context.client.listenerName);
    return hasListener ? broker : undefined;
  };
  // Kafka sees a replica it cannot reach as an empty node: it has no rack, and is never named.
  const viewOf = (brokerId: BrokerId, logEndOffset: number, sinceCaughtUpMs: number) => ({
    brokerId,
    rack: reachable(brokerId)?.rack ?? null,
    logEndOffset,
    timeSinceLastCaughtUpMs: sinceCaughtUpMs,
  });
  const { fetchOffset, nowMs } = context;
  const candidates: ReplicaView[] = [];
  for (const follower of role.followers.values()) {
    if (!leader.isr.includes(follower.replicaId)) continue;
    if (follower.logEndOffset < fetchOffset || follower.logStartOffset > fetchOffset) continue;
    const sinceCaughtUpMs = nowMs - follower.lastCaughtUpTimeMs;
    candidates.push(viewOf(follower.replicaId, follower.logEndOffset, sinceCaughtUpMs));
  }
  const leaderId = leader.brokerId;
  const leaderView = viewOf(leaderId, leader.logEndOffset, 0);
  candidates.push(leaderView);
  const selected = context.selector.select(context.client, {
    replicas: candidates,
    leader: leaderView,
  });
  if (selected.brokerId === leaderId) return undefined;
  return reachable(selected.brokerId) === undefined ? undefined : selected.brokerId;
}

/**
 * The leader's answer to a consumer it sends elsewhere: no records, its own offsets, and the
 * replica to read from (Kafka skips the read and takes fetchOffsetSnapshot, which checks the
 * epoch without requiring the leader).
 */
export function redirectedRead(
  partition: {
    readonly highWatermark: number;
    readonly logStartOffset: number;
    readonly logEndOffset: number;
    checkLeaderEpoch(
      currentLeaderEpoch: number,
      options: { readonly requireLeader: boolean },
    ): number;
  },
  currentLeaderEpoch: number,
  preferredReadReplica: BrokerId,
): ReadOutcome {
  const { highWatermark, logStartOffset, logEndOffset } = partition;
  const checked = partition.checkLeaderEpoch(currentLeaderEpoch, { requireLeader: false });
  if (checked !== ErrorCode.NONE) {
    return { kind: "error", errorCode: checked, highWatermark, logStartOffset };
  }
  return {
    kind: "records",
    records: [],
    sizeInBytes: 0,
    highWatermark,
    lastStableOffset: highWatermark,
    logStartOffset,
    logEndOffset,
    divergingEpoch: undefined,
    preferredReadReplica,
  };
}
