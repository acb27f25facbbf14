/**
 * The leader's ISR decisions (Kafka's Partition.maybeExpandIsr and maybeShrinkIsr) as pure
 * functions of its role: which follower may join, which members fell out of sync, and the
 * AlterPartition proposal that carries the change to the controller.
 */
import type { BrokerId } from "../common/index.js";
import {
  isInflight,
  type AlterPartitionItem,
  type CommittedIsr,
  type IsrMember,
} from "./isr-state.js";
import type { LeaderRole } from "./partition-role.js";
import { isCaughtUp, type FollowerReplicaState } from "./replica-state.js";

/** Which partition a proposal is for. */
export interface PartitionIdentity {
  readonly topicId: AlterPartitionItem["topicId"];
  readonly topicName: string;
  readonly partitionIndex: number;
  readonly localBrokerId: BrokerId;
  /** This broker's epoch from its registration, sent with its own ISR entry (KIP-903). */
  readonly localBrokerEpoch: number;
}

/**
 * Whether `follower` should join the ISR: no change in flight, not a member yet, eligible, and
 * its log end offset at least the high watermark and the start offset of this leader epoch. The
 * second bound keeps out a follower that has not yet fetched anything of the current epoch.
 */
export function shouldExpandIsr(
  role: LeaderRole,
  follower: FollowerReplicaState,
  at: { readonly highWatermark: number; readonly isEligible: boolean },
): boolean {
  if (isInflight(role.isrState)) return false;
  if (role.isrState.isr.includes(follower.replicaId)) return false;
  if (!at.isEligible) return false;
  return (
    follower.logEndOffset >= at.highWatermark &&
    follower.logEndOffset >= role.leaderEpochStartOffset
  );
}

/**
 * The ISR members (other than the leader) that are out of sync: neither at the leader's log end
 * offset nor caught up within `replicaLagTimeMaxMs`, which covers both stuck and slow followers.
 * Empty while a change is in flight.
 */
export function outOfSyncReplicas(
  role: LeaderRole,
  at: {
    readonly localBrokerId: BrokerId;
    readonly leaderEndOffset: number;
    readonly nowMs: number;
    readonly replicaLagTimeMaxMs: number;
  },
): BrokerId[] {
  if (isInflight(role.isrState)) return [];
  return role.isrState.isr.filter((replicaId) => {
    if (replicaId === at.localBrokerId) return false;
    const follower = role.followers.get(replicaId);
    return follower === undefined || !isCaughtUp(follower, at);
  });
}

/** The AlterPartition entry proposing `newIsr` from the leader's current epochs. */
export function alterPartitionProposal(
  role: LeaderRole,
  identity: PartitionIdentity,
  options: { readonly newIsr: readonly BrokerId[]; readonly committed: CommittedIsr },
): AlterPartitionItem {
  const newIsrWithEpochs: IsrMember[] = options.newIsr.map((brokerId) => ({
    brokerId,
    brokerEpoch: brokerEpochOf(role, identity, brokerId),
  }));
  return {
    topicId: identity.topicId,
    topicName: identity.topicName,
    partitionIndex: identity.partitionIndex,
    leaderEpoch: role.leaderEpoch,
    newIsrWithEpochs,
    leaderRecoveryState: options.committed.leaderRecoveryState,
    partitionEpoch: role.partitionEpoch,
  };
}

/**
 * The broker epoch to send for an ISR member: the leader's own, or the one the member's last
 * fetch carried; -1 when none is known, which the controller accepts (a member that restarted
 * since is removed by the controller anyway, which bumps the partition epoch).
 */
function brokerEpochOf(role: LeaderRole, identity: PartitionIdentity, brokerId: BrokerId): number {
  if (brokerId === identity.localBrokerId) return identity.localBrokerEpoch;
  return role.followers.get(brokerId)?.brokerEpoch ?? -1;
}

/** A proposal and the leader role that has it in flight. */
export interface Proposal {
  readonly role: LeaderRole;
  readonly sent: AlterPartitionItem;
}

/**
 * The ISR expansion for `follower` when it should join (see shouldExpandIsr). The new member
 * counts for the high watermark at once: waiting for it is only stricter if the change fails.
 */
export function proposeIsrExpansion(
  role: LeaderRole,
  identity: PartitionIdentity,
  at: {
    readonly follower: FollowerReplicaState;
    readonly highWatermark: number;
    readonly isEligible: boolean;
  },
): Proposal | undefined {
  const committed = role.isrState;
  if (committed.kind !== "committed") return undefined;
  if (!shouldExpandIsr(role, at.follower, at)) return undefined;
  const newInSyncReplicaId = at.follower.replicaId;
  const newIsr = [...committed.isr, newInSyncReplicaId];
  const sent = alterPartitionProposal(role, identity, { newIsr, committed });
  const isrState = {
    kind: "pendingExpand",
    isr: committed.isr,
    newInSyncReplicaId,
    sent,
    lastCommitted: committed,
  } as const;
  return { role: { ...role, isrState }, sent };
}

/**
 * The ISR shrink when members fell out of sync (see outOfSyncReplicas). The removed members
 * still count until the controller commits the change, since it may fail.
 */
export function proposeIsrShrink(
  role: LeaderRole,
  identity: PartitionIdentity,
  at: {
    readonly leaderEndOffset: number;
    readonly nowMs: number;
    readonly replicaLagTimeMaxMs: number;
  },
): Proposal | undefined {
  const committed = role.isrState;
  if (committed.kind !== "committed") return undefined;
  const outOfSyncReplicaIds = outOfSyncReplicas(role, {
    ...at,
    localBrokerId: identity.localBrokerId,
  });
  if (outOfSyncReplicaIds.length === 0) return undefined;
  const newIsr = committed.isr.filter((id) => !outOfSyncReplicaIds.includes(id));
  const sent = alterPartitionProposal(role, identity, { newIsr, committed });
  const isrState = {
    kind: "pendingShrink",
    isr: committed.isr,
    outOfSyncReplicaIds,
    sent,
    lastCommitted: committed,
  } as const;
  return { role: { ...role, isrState }, sent };
}
