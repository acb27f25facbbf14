/**
 * One classic group (Kafka's ClassicGroup): its members, generation, chosen protocol and the
 * rebalance mechanics every operation shares: preparing a rebalance, completing the join phase
 * and removing a member. States and transitions are listed on GroupState (group-types.ts).
 * Pure: time comes in as nowMs, answers to waiting requests go out as deliveries.
 */
import { assert, ErrorCode } from "../common/index.js";
import type { GroupConfig } from "./group-config.js";
import {
  joinError,
  syncError,
  type GroupDelivery,
  type GroupMember,
  type GroupState,
  type JoinResult,
  type MemberProtocol,
} from "./group-types.js";

/** What a group asks its owner to do: deliver answers, and wake it at deadlines. */
export interface GroupEffects {
  deliver(delivery: GroupDelivery): void;
  /** Calls the group's `onDeadline` at `atMs` (the owner keeps one heap for all groups). */
  scheduleDeadline(atMs: number): void;
}

/** A classic group; the coordinator owns it and serialises calls into it. */
export class ClassicGroup {
  state: GroupState = "Empty";
  generationId = 0;
  protocolType: string | null = null;
  protocolName: string | null = null;
  leaderId: string | null = null;
  readonly members = new Map<string, GroupMember>();
  /** Member ids handed out with MEMBER_ID_REQUIRED (KIP-394), with their deadline. */
  readonly pendingMembers = new Map<string, number>();
  /** When the join phase under way ends at the latest; undefined outside PreparingRebalance. */
  rebalanceDeadlineMs: number | undefined = undefined;
  /** The initial delay (group.initial.rebalance.delay.ms) of an empty group's first join. */
  private initialDelay: { remainingMs: number; hasNewMember: boolean } | undefined;
  /** When the state last changed (DescribeGroups does not show it; kept for retention). */
  stateChangedMs = 0;

  constructor(
    readonly groupId: string,
    readonly config: GroupConfig,
  ) {}

  /** Whether every member offers `protocolType` and one of `protocols` is common to all. */
  acceptsProtocols(protocolType: string, protocols: readonly MemberProtocol[]): boolean {
    if (protocolType === "" || protocols.length === 0) return false;
    if (this.members.size === 0) return true;
    if (this.protocolType !== protocolType) return false;
    const offered = new Set(protocols.map((protocol) => protocol.name));
    return this.candidateProtocols().some((name) => offered.has(name));
  }

  /** The protocols every member supports, in the order the first member listed them. */
  candidateProtocols(): string[] {
    const [first, ...others] = [...this.members.values()];
    if (first === undefined) return [];
    return first.protocols
      .map((protocol) => protocol.name)
      .filter((name) => others.every((member) => member.protocols.some((p) => p.name === name)));
  }

  /**
   * Kafka's selectProtocol: every member votes for its most preferred candidate protocol; the
   * protocol with the most votes wins (ties go to the one listed first).
   */
  selectProtocol(): string {
    const candidates = this.candidateProtocols();
    assert(candidates.length > 0, "members share a protocol");
    const votes = new Map(candidates.map((name) => [name, 0]));
    for (const member of this.members.values()) {
      const vote = member.protocols.find((protocol) => votes.has(protocol.name));
      assert(vote !== undefined, "every member supports a candidate");
      votes.set(vote.name, (votes.get(vote.name) ?? 0) + 1);
    }
    let best = candidates[0] as string;
    for (const name of candidates) if ((votes.get(name) ?? 0) > (votes.get(best) ?? 0)) best = name;
    return best;
  }

  /** Moves to PreparingRebalance (Kafka's prepareRebalance), answering pending syncs. */
  prepareRebalance(nowMs: number, effects: GroupEffects): void {
    assert(this.state !== "Dead", "a dead group does not rebalance");
    if (this.state === "CompletingRebalance") {
      // The assignment being computed is void: members must rejoin first.
      for (const member of this.members.values()) this.answerSync(member, effects);
    }
    const wasEmpty = this.state === "Empty";
    this.transitionTo("PreparingRebalance", nowMs);
    const rebalanceTimeoutMs = this.maxRebalanceTimeoutMs();
    if (wasEmpty && this.config.initialRebalanceDelayMs > 0) {
      const delayMs = Math.min(this.config.initialRebalanceDelayMs, rebalanceTimeoutMs);
      this.initialDelay = { remainingMs: rebalanceTimeoutMs - delayMs, hasNewMember: false };
      this.setRebalanceDeadline(nowMs + delayMs, effects);
    } else {
      this.initialDelay = undefined;
      this.setRebalanceDeadline(nowMs + rebalanceTimeoutMs, effects);
    }
  }

  /** Notes a new member during an initial delay, which then waits one more round. */
  noteNewMember(): void {
    if (this.initialDelay !== undefined) this.initialDelay.hasNewMember = true;
  }

  /** Completes the join phase when every member has rejoined (outside the initial delay). */
  maybeCompleteJoin(nowMs: number, effects: GroupEffects): boolean {
    if (this.state !== "PreparingRebalance" || this.initialDelay !== undefined) return false;
    const hasAllJoined = [...this.members.values()].every((member) => member.isAwaitingJoin);
    if (!hasAllJoined || this.pendingMembers.size > 0) return false;
    this.completeJoin(nowMs, effects);
    return true;
  }

  /** Handles the group's deadlines that are due: the rebalance timeout and member sessions. */
  onDeadline(nowMs: number, effects: GroupEffects): void {
    for (const [memberId, deadlineMs] of this.pendingMembers) {
      if (deadlineMs <= nowMs) this.pendingMembers.delete(memberId);
    }
    for (const member of [...this.members.values()]) {
      // Members waiting for a join or sync answer are kept alive, as in Kafka.
      const isKeptAlive = member.isAwaitingJoin || member.isAwaitingSync;
      if (!isKeptAlive && member.sessionDeadlineMs <= nowMs)
        this.removeMember(member, nowMs, effects);
    }
    const deadlineMs = this.rebalanceDeadlineMs;
    if (this.state === "PreparingRebalance" && deadlineMs !== undefined && deadlineMs <= nowMs) {
      this.onRebalanceDeadline(nowMs, effects);
    } else {
      this.maybeCompleteJoin(nowMs, effects);
    }
  }

  /** Removes a member that left or expired, and rebalances the rest (Kafka's removeMember). */
  removeMember(member: GroupMember, nowMs: number, effects: GroupEffects): void {
    this.members.delete(member.memberId);
    if (member.isAwaitingJoin) {
      const result = joinError(ErrorCode.UNKNOWN_MEMBER_ID, member.memberId);
      effects.deliver({ kind: "join", groupId: this.groupId, memberId: member.memberId, result });
    }
    if (member.isAwaitingSync) this.answerSync(member, effects);
    if (this.leaderId === member.memberId) this.leaderId = this.members.keys().next().value ?? null;
    if (this.state === "Stable" || this.state === "CompletingRebalance") {
      this.prepareRebalance(nowMs, effects);
    }
    if (this.state === "PreparingRebalance") this.maybeCompleteJoin(nowMs, effects);
  }

  /** The JoinGroup answer of `member` in the current generation. */
  joinResultOf(memberId: string): JoinResult {
    const isLeader = memberId === this.leaderId;
    const protocolName = this.protocolName;
    return {
      errorCode: ErrorCode.NONE,
      generationId: this.generationId,
      protocolType: this.protocolType,
      protocolName,
      leader: this.leaderId ?? "",
      memberId,
      members: isLeader ? [...this.members.values()].map((m) => memberOf(m, protocolName)) : [],
    };
  }

  /** Schedules a member's session deadline `sessionTimeoutMs` from now. */
  refreshSession(member: GroupMember, nowMs: number, effects: GroupEffects): void {
    member.sessionDeadlineMs = nowMs + member.sessionTimeoutMs;
    effects.scheduleDeadline(member.sessionDeadlineMs);
  }

  /** Changes state, recording when. */
  transitionTo(state: GroupState, nowMs: number): void {
    this.state = state;
    this.stateChangedMs = nowMs;
    if (state !== "PreparingRebalance") this.rebalanceDeadlineMs = undefined;
  }

  /** Answers a member's waiting SyncGroup with REBALANCE_IN_PROGRESS or its assignment. */
  answerSync(member: GroupMember, effects: GroupEffects): void {
    if (!member.isAwaitingSync) return;
    member.isAwaitingSync = false;
    const result =
      this.state === "Stable"
        ? {
            errorCode: ErrorCode.NONE,
            protocolType: this.protocolType,
            protocolName: this.protocolName,
            assignment: member.assignment,
          }
        : syncError(ErrorCode.REBALANCE_IN_PROGRESS);
    effects.deliver({ kind: "sync", groupId: this.groupId, memberId: member.memberId, result });
  }

  private onRebalanceDeadline(nowMs: number, effects: GroupEffects): void {
    const delay = this.initialDelay;
    if (delay !== undefined && delay.hasNewMember && delay.remainingMs > 0) {
      // Kafka's InitialDelayedJoin: new members arrived, so wait another round within the budget.
      const delayMs = Math.min(this.config.initialRebalanceDelayMs, delay.remainingMs);
      this.initialDelay = { remainingMs: delay.remainingMs - delayMs, hasNewMember: false };
      this.setRebalanceDeadline(nowMs + delayMs, effects);
      return;
    }
    this.initialDelay = undefined;
    this.completeJoin(nowMs, effects);
  }

  /** Ends the join phase: drops members that did not rejoin, starts the next generation. */
  private completeJoin(nowMs: number, effects: GroupEffects): void {
    this.initialDelay = undefined;
    for (const member of [...this.members.values()]) {
      if (!member.isAwaitingJoin) this.members.delete(member.memberId);
    }
    if (this.leaderId === null || !this.members.has(this.leaderId)) {
      this.leaderId = this.members.keys().next().value ?? null;
    }
    this.generationId += 1;
    if (this.members.size === 0) {
      this.protocolName = null;
      this.transitionTo("Empty", nowMs);
      return;
    }
    this.protocolName = this.selectProtocol();
    this.transitionTo("CompletingRebalance", nowMs);
    for (const member of this.members.values()) {
      member.isAwaitingJoin = false;
      member.isNew = false;
      member.assignment = new Uint8Array(0);
      this.refreshSession(member, nowMs, effects);
      const result = this.joinResultOf(member.memberId);
      effects.deliver({ kind: "join", groupId: this.groupId, memberId: member.memberId, result });
    }
  }

  private setRebalanceDeadline(atMs: number, effects: GroupEffects): void {
    this.rebalanceDeadlineMs = atMs;
    effects.scheduleDeadline(atMs);
  }

  private maxRebalanceTimeoutMs(): number {
    let maxMs = 0;
    for (const member of this.members.values()) maxMs = Math.max(maxMs, member.rebalanceTimeoutMs);
    return maxMs;
  }
}

function memberOf(
  member: GroupMember,
  protocolName: string | null,
): {
  memberId: string;
  metadata: Uint8Array;
} {
  const protocol = member.protocols.find((candidate) => candidate.name === protocolName);
  return { memberId: member.memberId, metadata: protocol?.metadata ?? new Uint8Array(0) };
}
