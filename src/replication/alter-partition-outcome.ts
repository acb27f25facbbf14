/**
 * What a leader does with the controller's answer to its AlterPartition proposal (Kafka's
 * Partition.handleAlterPartitionUpdate and handleAlterPartitionError), as a pure function.
 */
import { ErrorCode } from "../common/index.js";
import {
  committedIsr,
  type AlterPartitionItem,
  type AlterPartitionOutcome,
  type IsrChange,
} from "./isr-state.js";
import type { LeaderRole } from "./partition-role.js";

/** The new role, or undefined to keep the current one; and whether to send again. */
export interface HandledOutcome {
  readonly role: LeaderRole | undefined;
  readonly shouldRetry: boolean;
  readonly isrChange: IsrChange | undefined;
}

/** What the partition's state tells its driver after an answer. */
export interface AlterPartitionHandling {
  readonly highWatermarkChanged: boolean;
  readonly shouldRetry: boolean;
  readonly isrChange: IsrChange | undefined;
}

/** An answer that changes nothing: the proposal is no longer the one in flight. */
export const IGNORED: HandledOutcome = {
  role: undefined,
  shouldRetry: false,
  isrChange: undefined,
};
const STALE: HandledOutcome = { ...IGNORED, isrChange: "failed" };

/**
 * Applies `outcome` to `role` if `sent` is still the proposal in flight. An answer to an older
 * proposal is ignored: the state moved on through metadata, which is authoritative.
 */
export function applyAlterPartitionOutcome(
  role: LeaderRole,
  sent: AlterPartitionItem,
  outcome: AlterPartitionOutcome,
): HandledOutcome {
  const isrState = role.isrState;
  if (isrState.kind === "committed" || isrState.sent !== sent) return IGNORED;
  if (outcome.kind === "updated") {
    // An answer for another leader epoch, or older than what metadata already told us, is stale.
    if (outcome.leaderEpoch !== role.leaderEpoch) return STALE;
    if (outcome.partitionEpoch < role.partitionEpoch) return STALE;
    return {
      role: {
        ...role,
        partitionEpoch: outcome.partitionEpoch,
        isrState: committedIsr(outcome.isr, outcome.leaderRecoveryState),
      },
      shouldRetry: false,
      isrChange: isrState.kind === "pendingExpand" ? "expanded" : "shrunk",
    };
  }
  switch (outcome.errorCode) {
    case ErrorCode.OPERATION_NOT_ATTEMPTED:
    case ErrorCode.INELIGIBLE_REPLICA:
      // The controller says the partition epoch is right and nothing was applied: safe to
      // return to the committed state and decide again.
      return { ...STALE, role: { ...role, isrState: isrState.lastCommitted } };
    case ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
    case ErrorCode.UNKNOWN_TOPIC_ID:
    case ErrorCode.FENCED_LEADER_EPOCH:
    case ErrorCode.INVALID_UPDATE_VERSION:
    case ErrorCode.INVALID_REQUEST:
    case ErrorCode.NEW_LEADER_ELECTED:
      // Our state is stale; stay pending until new metadata replaces it.
      return STALE;
    default:
      return { ...STALE, shouldRetry: true };
  }
}
