/**
 * The ISR as a leader holds it (Kafka's PartitionState with KIP-497): committed by the
 * controller, or with one AlterPartition change in flight. While an expansion is in flight the
 * new member already counts for the high watermark and acks=all (the "maximal ISR"), which is
 * only stricter; while a shrink is in flight the removed members still count, since the shrink
 * may fail. One change at a time: a pending state takes no new decision.
 *
 * States: committed → pendingExpand | pendingShrink (a decision) → committed (the controller's
 * answer, or new metadata).
 */
import type { BrokerId, Uuid } from "../common/index.js";
import type { LeaderRecoveryState } from "../metadata/index.js";

/** One ISR member with the broker epoch its last fetch carried (-1 when unknown), KIP-903. */
export interface IsrMember {
  readonly brokerId: BrokerId;
  readonly brokerEpoch: number;
}

/** One partition's entry of an AlterPartition request, as the leader proposes it. */
export interface AlterPartitionItem {
  readonly topicId: Uuid;
  readonly topicName: string;
  readonly partitionIndex: number;
  readonly leaderEpoch: number;
  readonly newIsrWithEpochs: readonly IsrMember[];
  readonly leaderRecoveryState: LeaderRecoveryState;
  /** The partition epoch the proposal is based on; the controller refuses a stale one. */
  readonly partitionEpoch: number;
}

/** The controller's answer to one partition of an AlterPartition request. */
export type AlterPartitionOutcome =
  | {
      readonly kind: "updated";
      readonly leaderEpoch: number;
      readonly partitionEpoch: number;
      readonly isr: readonly BrokerId[];
      readonly leaderRecoveryState: LeaderRecoveryState;
    }
  /** A partition-level or request-level error code (or a lost request: UNKNOWN_SERVER_ERROR). */
  | { readonly kind: "error"; readonly errorCode: number };

/**
 * What an answer did to the ISR, as Kafka's AlterPartitionListener hears it: the proposed
 * expansion or shrink was committed, or the answer was a failure (an error, or an update for a
 * stale epoch). An answer to a proposal no longer in flight does neither.
 */
export type IsrChange = "expanded" | "shrunk" | "failed";

/** The ISR state of a leader. */
export type IsrState =
  | {
      readonly kind: "committed";
      readonly isr: readonly BrokerId[];
      readonly leaderRecoveryState: LeaderRecoveryState;
    }
  | {
      readonly kind: "pendingExpand";
      /** The committed ISR (without the new member). */
      readonly isr: readonly BrokerId[];
      readonly newInSyncReplicaId: BrokerId;
      readonly sent: AlterPartitionItem;
      readonly lastCommitted: CommittedIsr;
    }
  | {
      readonly kind: "pendingShrink";
      /** The committed ISR (with the members being removed). */
      readonly isr: readonly BrokerId[];
      readonly outOfSyncReplicaIds: readonly BrokerId[];
      readonly sent: AlterPartitionItem;
      readonly lastCommitted: CommittedIsr;
    };

export type CommittedIsr = Extract<IsrState, { kind: "committed" }>;

/** A committed ISR state. */
export function committedIsr(
  isr: readonly BrokerId[],
  leaderRecoveryState: LeaderRecoveryState,
): CommittedIsr {
  return { kind: "committed", isr: [...isr], leaderRecoveryState };
}

/** The ISR that counts for the high watermark and acks=all (KIP-497's maximal ISR). */
export function maximalIsr(state: IsrState): readonly BrokerId[] {
  if (state.kind === "pendingExpand") return [...state.isr, state.newInSyncReplicaId];
  return state.isr;
}

/** Whether an AlterPartition request is in flight. */
export function isInflight(state: IsrState): boolean {
  return state.kind !== "committed";
}
