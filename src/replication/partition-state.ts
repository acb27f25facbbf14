/**
 * The pure state of one local replica (Kafka's Partition without its log); this file owns one
 * state machine: the role, the epoch checks of requests, the high watermark, the followers'
 * fetch states and the ISR decisions. Synchronous and deterministic: time comes in as `nowMs`,
 * the local log's offsets as arguments, and decisions go out as values (AlterPartition
 * proposals, "high watermark changed").
 *
 * Roles and transitions are listed in partition-role.ts; the ISR's in isr-state.ts.
 */
import { assert, type BrokerId } from "../common/index.js";
import type { PartitionRegistration } from "../metadata/index.js";
import { proposeIsrExpansion, proposeIsrShrink } from "./isr-decisions.js";
import { maximalIsr, type AlterPartitionItem, type AlterPartitionOutcome } from "./isr-state.js";
import { effectiveMinIsr, highWatermarkCandidate } from "./high-watermark.js";
import type { PartitionRole } from "./partition-role.js";
import { leaderRoleFor } from "./leader-transition.js";
import {
  updateFetchState,
  type FollowerFetch,
  type FollowerReplicaState,
} from "./replica-state.js";
import {
  applyAlterPartitionOutcome,
  IGNORED,
  type AlterPartitionHandling,
} from "./alter-partition-outcome.js";
import {
  checkAppend,
  checkEnoughReplicasReachOffset,
  checkLeaderEpoch,
  isUnderMinIsr,
  type AcksAllProgress,
} from "./request-checks.js";
import type { PartitionIdentity } from "./isr-decisions.js";

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

export class PartitionState {
  private currentRole: PartitionRole = { kind: "none", leaderEpoch: -1, partitionEpoch: -1 };
  private currentHighWatermark: number;
  private localLogEndOffset: number;
  private localLogStartOffset: number;
  private minInsyncReplicas: number;

  constructor(private readonly options: PartitionStateOptions) {
    assert(options.logStartOffset <= options.logEndOffset, "log start is not past the log end");
    this.localLogStartOffset = options.logStartOffset;
    this.localLogEndOffset = options.logEndOffset;
    this.minInsyncReplicas = options.minInsyncReplicas;
    // As Kafka's log does on load: the checkpoint, kept within [log start, log end].
    const checkpoint = options.highWatermarkCheckpoint ?? options.logStartOffset;
    this.currentHighWatermark = Math.min(
      Math.max(checkpoint, options.logStartOffset),
      options.logEndOffset,
    );
  }

  get role(): PartitionRole {
    return this.currentRole;
  }
  get leaderEpoch(): number {
    return this.currentRole.leaderEpoch;
  }
  get partitionEpoch(): number {
    return this.currentRole.partitionEpoch;
  }
  get isLeader(): boolean {
    return this.currentRole.kind === "leader";
  }
  get highWatermark(): number {
    return this.currentHighWatermark;
  }
  get logEndOffset(): number {
    return this.localLogEndOffset;
  }
  get logStartOffset(): number {
    return this.localLogStartOffset;
  }
  /** The committed ISR (empty unless leader). */
  get isr(): readonly BrokerId[] {
    return this.currentRole.kind === "leader" ? this.currentRole.isrState.isr : [];
  }
  /** The ISR that counts for the high watermark and acks=all (empty unless leader). */
  get maximalIsr(): readonly BrokerId[] {
    return this.currentRole.kind === "leader" ? maximalIsr(this.currentRole.isrState) : [];
  }
  /** The leader's view of a follower, if this broker leads and `replicaId` follows. */
  followerState(replicaId: BrokerId): FollowerReplicaState | undefined {
    return this.currentRole.kind === "leader"
      ? this.currentRole.followers.get(replicaId)
      : undefined;
  }

  /** Applies a new `min.insync.replicas` (a topic config change). */
  updateMinInsyncReplicas(minInsyncReplicas: number): void {
    assert(minInsyncReplicas >= 1, "min.insync.replicas is at least 1");
    this.minInsyncReplicas = minInsyncReplicas;
  }

  /**
   * Makes this broker the leader of `registration` (Kafka's makeLeader). A new leader epoch
   * records where the epoch starts and resets the followers' states; the same epoch with a newer
   * partition epoch only takes the new replicas and ISR (an AlterPartition or reassignment).
   */
  becomeLeader(
    registration: PartitionRegistration,
    at: { readonly nowMs: number; readonly localLogEndOffset: number },
  ): RoleChange {
    assert(registration.leader === this.options.localBrokerId, "the registration names us leader");
    if (registration.partitionEpoch < this.partitionEpoch) return { kind: "skipped" };
    const previous = this.currentRole;
    const isNewLeader = previous.kind !== "leader";
    const isNewLeaderEpoch = registration.leaderEpoch > previous.leaderEpoch;
    this.setLogEndOffset(at.localLogEndOffset);
    this.currentRole = leaderRoleFor(registration, previous, {
      localBrokerId: this.options.localBrokerId,
      nowMs: at.nowMs,
      logEndOffset: this.localLogEndOffset,
    });
    // The ISR may have shrunk to the leader alone, which can let the high watermark move.
    const highWatermarkChanged = this.maybeAdvanceHighWatermark(at.nowMs);
    return { kind: "changed", isNewLeaderEpoch, isNewLeader, highWatermarkChanged };
  }

  /** Makes this broker a follower of `registration`'s leader (Kafka's makeFollower). */
  becomeFollower(
    registration: PartitionRegistration,
    at: { readonly localLogEndOffset: number },
  ): RoleChange {
    assert(registration.leader !== this.options.localBrokerId, "the registration names another");
    if (registration.partitionEpoch < this.partitionEpoch) return { kind: "skipped" };
    const isNewLeaderEpoch = registration.leaderEpoch > this.leaderEpoch;
    this.setLogEndOffset(at.localLogEndOffset);
    this.currentRole = {
      kind: "follower",
      leaderId: registration.leader,
      leaderEpoch: registration.leaderEpoch,
      partitionEpoch: registration.partitionEpoch,
      replicas: [...registration.replicas],
    };
    return { kind: "changed", isNewLeaderEpoch, isNewLeader: false, highWatermarkChanged: false };
  }

  /** Takes the replica offline: its log's dir failed. */
  becomeOffline(): void {
    const { leaderEpoch, partitionEpoch } = this.currentRole;
    this.currentRole = { kind: "offline", leaderEpoch, partitionEpoch };
  }

  /** The epoch and leadership check of a request (see request-checks.ts). */
  checkLeaderEpoch(
    currentLeaderEpoch: number,
    options: { readonly requireLeader: boolean },
  ): number {
    return checkLeaderEpoch(this.currentRole, currentLeaderEpoch, options);
  }

  /** The check of an append before anything is written (see request-checks.ts). */
  checkAppend(requiredAcks: number): number {
    const { minInsyncReplicas } = this;
    return checkAppend(this.currentRole, { requiredAcks, minInsyncReplicas });
  }

  /** Records the local log's new end offset after an append; true when the HW moved. */
  recordLocalAppend(logEndOffset: number, nowMs: number): boolean {
    this.setLogEndOffset(logEndOffset);
    return this.maybeAdvanceHighWatermark(nowMs);
  }

  /** Records a new log start offset (DeleteRecords, retention, the leader's on a follower). */
  recordLogStartOffset(logStartOffset: number): void {
    assert(logStartOffset <= this.localLogEndOffset, "the log start is not past the log end");
    this.localLogStartOffset = Math.max(this.localLogStartOffset, logStartOffset);
    if (this.currentHighWatermark < this.localLogStartOffset) {
      this.currentHighWatermark = this.localLogStartOffset;
    }
  }

  /**
   * Records the local log's offsets after a truncation (a follower's divergence, or a restart at
   * the leader's log start): the high watermark stays within the log. Only a follower truncates;
   * a leader's log below its high watermark is committed.
   */
  recordTruncation(logStartOffset: number, logEndOffset: number): void {
    assert(this.currentRole.kind !== "leader", "a leader never truncates its log");
    assert(logStartOffset <= logEndOffset, "the log start is not past the log end");
    this.localLogStartOffset = logStartOffset;
    this.setLogEndOffset(logEndOffset);
    if (this.currentHighWatermark < logStartOffset) this.currentHighWatermark = logStartOffset;
  }

  /**
   * A follower's high watermark after a fetch: the leader's, bounded by its own log (Kafka's
   * maybeUpdateHighWatermark on the follower's log). True when it changed.
   */
  recordLeaderHighWatermark(leaderHighWatermark: number): boolean {
    if (this.currentRole.kind !== "follower") return false;
    const bounded = Math.min(
      Math.max(leaderHighWatermark, this.localLogStartOffset),
      this.localLogEndOffset,
    );
    if (bounded === this.currentHighWatermark) return false;
    this.currentHighWatermark = bounded;
    return true;
  }

  /**
   * Moves the leader's high watermark up to what every counting replica has (see
   * high-watermark.ts); never while the ISR is below min.insync.replicas (Kafka 3.7's rule,
   * KIP-966), never backwards. True when it moved.
   */
  maybeAdvanceHighWatermark(nowMs: number): boolean {
    const role = this.currentRole;
    if (role.kind !== "leader") return false;
    if (isUnderMinIsr(role, this.minInsyncReplicas)) return false;
    const candidate = highWatermarkCandidate({
      leaderLogEndOffset: this.localLogEndOffset,
      followers: role.followers.values(),
      maximalIsr: maximalIsr(role.isrState),
      nowMs,
      replicaLagTimeMaxMs: this.options.replicaLagTimeMaxMs,
      isEligible: (follower) => this.isEligible(follower),
    });
    if (candidate <= this.currentHighWatermark) return false;
    assert(candidate <= this.localLogEndOffset, "the high watermark never passes the log end");
    this.currentHighWatermark = candidate;
    return true;
  }

  /**
   * Records a follower's fetch (Kafka's updateFollowerFetchState): its offsets and lag, then an
   * ISR expansion when it caught up, then the high watermark when its log end offset moved.
   */
  updateFollowerFetchState(replicaId: BrokerId, fetch: FollowerFetch): FollowerFetchUpdate {
    const role = this.currentRole;
    if (role.kind !== "leader") return { kind: "unknownReplica" };
    const previous = role.followers.get(replicaId);
    if (previous === undefined) return { kind: "unknownReplica" };
    const updated = updateFetchState(previous, fetch);
    const followers = new Map(role.followers).set(replicaId, updated);
    this.currentRole = { ...role, followers };
    const alterPartition = this.maybeExpandIsr(updated);
    const highWatermarkChanged =
      previous.logEndOffset !== updated.logEndOffset &&
      this.maybeAdvanceHighWatermark(fetch.fetchTimeMs);
    return { kind: "updated", highWatermarkChanged, alterPartition };
  }

  /**
   * The ISR shrink to propose when members fell out of sync (Kafka's maybeShrinkIsr), or
   * undefined. The proposal is in flight from now on; its members still count meanwhile.
   */
  maybeShrinkIsr(nowMs: number): AlterPartitionItem | undefined {
    const role = this.currentRole;
    if (role.kind !== "leader") return undefined;
    const proposal = proposeIsrShrink(role, this.options, {
      leaderEndOffset: this.localLogEndOffset,
      nowMs,
      replicaLagTimeMaxMs: this.options.replicaLagTimeMaxMs,
    });
    if (proposal !== undefined) this.currentRole = proposal.role;
    return proposal?.sent;
  }

  /**
   * Applies the controller's answer to the proposal `sent` (Kafka's handleAlterPartitionUpdate
   * and handleAlterPartitionError). `shouldRetry` asks the caller to send `sent` again;
   * `isrChange` is what Kafka's AlterPartitionListener would be told.
   */
  handleAlterPartitionOutcome(
    sent: AlterPartitionItem,
    outcome: AlterPartitionOutcome,
    nowMs: number,
  ): AlterPartitionHandling {
    const role = this.currentRole;
    if (role.kind !== "leader") return { highWatermarkChanged: false, ...IGNORED };
    const handled = applyAlterPartitionOutcome(role, sent, outcome);
    if (handled.role === undefined) return { highWatermarkChanged: false, ...handled };
    this.currentRole = handled.role;
    const { shouldRetry, isrChange } = handled;
    return { highWatermarkChanged: this.maybeAdvanceHighWatermark(nowMs), shouldRetry, isrChange };
  }

  /** Whether an acks=all append ending before `requiredOffset` is done (request-checks.ts). */
  checkEnoughReplicasReachOffset(requiredOffset: number): AcksAllProgress {
    return checkEnoughReplicasReachOffset(this.currentRole, {
      requiredOffset,
      highWatermark: this.currentHighWatermark,
      minInsyncReplicas: this.minInsyncReplicas,
    });
  }

  /** Whether the ISR is below the effective min.insync.replicas (Kafka's UnderMinIsr). */
  get isUnderMinIsr(): boolean {
    return isUnderMinIsr(this.currentRole, this.minInsyncReplicas);
  }

  /** Whether a leader's ISR is exactly the effective min.insync.replicas (Kafka's AtMinIsr). */
  get isAtMinIsr(): boolean {
    const role = this.currentRole;
    if (role.kind !== "leader") return false;
    return (
      role.isrState.isr.length === effectiveMinIsr(this.minInsyncReplicas, role.replicas.length)
    );
  }

  /** Kafka's lowWatermarkIfLeader: the smallest log start offset over the leader and followers. */
  get lowWatermark(): number {
    const role = this.currentRole;
    let lowWatermark = this.localLogStartOffset;
    if (role.kind !== "leader") return lowWatermark;
    for (const follower of role.followers.values()) {
      lowWatermark = Math.min(lowWatermark, follower.logStartOffset);
    }
    return lowWatermark;
  }

  private isEligible(follower: FollowerReplicaState): boolean {
    // Kafka requires a fetch under the current leader first: its broker epoch is then known.
    if (follower.brokerEpoch === undefined) return false;
    const check = this.options.isReplicaEligible;
    return check === undefined || check(follower.replicaId, follower.brokerEpoch);
  }

  private maybeExpandIsr(follower: FollowerReplicaState): AlterPartitionItem | undefined {
    const role = this.currentRole;
    if (role.kind !== "leader") return undefined;
    const proposal = proposeIsrExpansion(role, this.options, {
      follower,
      highWatermark: this.currentHighWatermark,
      isEligible: this.isEligible(follower),
    });
    if (proposal !== undefined) this.currentRole = proposal.role;
    return proposal?.sent;
  }

  private setLogEndOffset(logEndOffset: number): void {
    assert(logEndOffset >= this.localLogStartOffset, "the log end is not before the log start");
    this.localLogEndOffset = logEndOffset;
    // A follower's log may be truncated below its high watermark; a leader's never is.
    if (this.currentHighWatermark > logEndOffset) this.currentHighWatermark = logEndOffset;
  }
}
