/**
 * The leader role a registration gives (Kafka's Partition.makeLeader, without the log): the
 * followers' states kept or reset, and the offset the leader epoch starts at.
 */
import type { BrokerId } from "../common/index.js";
import type { PartitionRegistration } from "../metadata/index.js";
import { committedIsr } from "./isr-state.js";
import type { LeaderRole, PartitionRole } from "./partition-role.js";
import {
  emptyReplicaState,
  resetReplicaState,
  type FollowerReplicaState,
} from "./replica-state.js";

/**
 * The leader role for `registration` after `previous`. A new leader, or a new leader epoch,
 * starts the epoch at the local log end offset and resets every follower's state; the same
 * epoch with a newer partition epoch (an ISR or replica change) keeps them.
 */
export function leaderRoleFor(
  registration: PartitionRegistration,
  previous: PartitionRole,
  at: { readonly localBrokerId: BrokerId; readonly nowMs: number; readonly logEndOffset: number },
): LeaderRole {
  const isNewLeader = previous.kind !== "leader";
  const isNewLeaderEpoch = registration.leaderEpoch > previous.leaderEpoch;
  let followers = followersOf(registration.replicas, at.localBrokerId, previous);
  let leaderEpochStartOffset = previous.kind === "leader" ? previous.leaderEpochStartOffset : -1;
  if (isNewLeader || isNewLeaderEpoch) {
    leaderEpochStartOffset = at.logEndOffset;
    const reset = { nowMs: at.nowMs, leaderEndOffset: at.logEndOffset, isNewLeader };
    followers = new Map(
      [...followers].map(([id, state]) => {
        const isInSync = registration.isr.includes(id);
        return [id, resetReplicaState(state, { ...reset, isInSync })];
      }),
    );
  }
  return {
    kind: "leader",
    leaderEpoch: registration.leaderEpoch,
    partitionEpoch: registration.partitionEpoch,
    replicas: [...registration.replicas],
    leaderEpochStartOffset,
    isrState: committedIsr(registration.isr, "recovered"),
    followers,
  };
}

/** The followers of `replicas`, keeping the states a previous leader role had for them. */
function followersOf(
  replicas: readonly BrokerId[],
  localBrokerId: BrokerId,
  previous: PartitionRole,
): Map<BrokerId, FollowerReplicaState> {
  const followers = new Map<BrokerId, FollowerReplicaState>();
  for (const replicaId of replicas) {
    if (replicaId === localBrokerId) continue;
    const known = previous.kind === "leader" ? previous.followers.get(replicaId) : undefined;
    followers.set(replicaId, known ?? emptyReplicaState(replicaId));
  }
  return followers;
}
