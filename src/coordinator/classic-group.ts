/**
 * One classic group (Kafka's ClassicGroup) and the rules of JoinGroup, SyncGroup, Heartbeat and
 * LeaveGroup on it (Kafka's classicGroupJoin, classicGroupSync, classicGroupHeartbeat and
 * classicGroupLeave). This file owns one state machine, the group's:
 *
 *   Empty               → PreparingRebalance   a member joins
 *   PreparingRebalance  → CompletingRebalance  every member rejoined, or the rebalance timeout
 *                       → Empty                no member rejoined in time
 *   CompletingRebalance → Stable               the leader's assignment is durable in the log
 *                       → PreparingRebalance   a member joins, changes, leaves or expires
 *   Stable              → PreparingRebalance   the same, or the leader rejoins
 *   any state           → Dead                 deleted, or its offsets partition moved away
 *
 * Its GroupMetadata record is written when a rebalance completes, before the assignment is
 * handed out (Kafka's storeGroup), and when it turns Empty; loaded, it is Stable (or Empty).
 *
 * Static members (KIP-345, `group.instance.id`) stay through a rebalance they miss, until their
 * session ends; one that restarts takes its old place under a new member id, in a Stable group
 * without a rebalance when the group's protocol stays (Kafka's replaceStaticMember).
 *
 * Pure: time comes in as nowMs; answers to requests that wait go out as deliveries, and deadlines
 * to the owner, which keeps one heap for every group (GroupCoordinatorState).
 */
import { assert, assertNever, ErrorCode } from "../common/index.js";
import type { GroupConfig } from "./group-config.js";
import {
  joinError,
  refusalsOfWaiting,
  syncError,
  type Answer,
  type JoinRequest,
  type JoinResult,
  type MemberIdentity,
  type SyncRequest,
  type SyncResult,
} from "./group-messages.js";
import { acceptsProtocols, sameProtocols, selectProtocol } from "./protocol-selection.js";
import { replacedJoinResult, StaticMembers } from "./static-members.js";
import { isSubscribedTo, subscribedTopicsOf, type GroupMember } from "./group-member.js";
import { assignmentOf, joinResultOf } from "./classic-group-answers.js";
import { loadedMember, recordOf, type PersistedClassicGroup } from "./classic-group-records.js";
import {
  PREVIOUS_STATES,
  type GroupEffects,
  type GroupState,
  type Member,
  type StoredRecord,
} from "./classic-group-states.js";
export type { GroupEffects, GroupState, StoredRecord } from "./classic-group-states.js";

/** A classic group; its owner serialises calls into it. */
export class ClassicGroup {
  #state: GroupState = "Empty";
  #generationId = 0;
  /** Transitions to PreparingRebalance (Kafka's classic-group-rebalance-count). */
  #rebalanceCount = 0;
  #protocolType: string | null = null;
  #protocolName: string | null = null;
  #leaderId: string | null = null;
  readonly #members = new Map<string, Member>();
  readonly #staticMembers = new StaticMembers();
  /** Member ids handed out with MEMBER_ID_REQUIRED (KIP-394), with their deadline. */
  readonly #pendingMembers = new Map<string, number>();
  /** When the join phase under way ends at the latest; undefined outside PreparingRebalance. */
  #rebalanceDeadlineMs: number | undefined = undefined;
  /** The initial delay (group.initial.rebalance.delay.ms) of an empty group's first join. */
  #initialDelay: { remainingMs: number; hasNewMember: boolean } | undefined;
  /** When the state last changed (Kafka's currentStateTimestamp, not shown by DescribeGroups). */
  #stateChangedMs: number;
  /** What the members subscribed to when the generation began (undefined: not known). */
  #subscribedTopics: ReadonlySet<string> | undefined = undefined;
  /** The leader's assignment while its record is written (CompletingRebalance only). */
  #storingAssignment: ReadonlyMap<string, Uint8Array> | undefined = undefined;

  constructor(
    readonly groupId: string,
    private readonly config: GroupConfig,
    createdMs: number,
  ) {
    this.#stateChangedMs = createdMs;
  }

  /** Loaded from its record (Kafka's replay): Stable, rebalancing over group.max.size, or Empty. */
  static loaded(
    groupId: string,
    config: GroupConfig,
    at: { readonly record: PersistedClassicGroup; readonly nowMs: number },
    effects: GroupEffects,
  ): ClassicGroup {
    const { record, nowMs } = at;
    const group = new ClassicGroup(groupId, config, nowMs);
    group.#generationId = record.generationId;
    group.#protocolType = record.protocolType === "" ? null : record.protocolType;
    group.#protocolName = record.protocolName;
    group.#leaderId = record.leaderId;
    for (const persisted of record.members) {
      const member = loadedMember(persisted, record.protocolName, nowMs);
      group.#members.set(member.memberId, member);
      if (member.groupInstanceId !== null) {
        group.#staticMembers.assign(member.groupInstanceId, member.memberId);
      }
      effects.scheduleDeadline(member.sessionDeadlineMs);
    }
    group.#state = group.#members.size === 0 ? "Empty" : "Stable";
    const members = [...group.#members.values()];
    group.#subscribedTopics = subscribedTopicsOf({ ...record, members });
    if (members.length > config.maxSize) group.prepareRebalance(nowMs, effects);
    return group;
  }

  get state(): GroupState {
    return this.#state;
  }

  get generationId(): number {
    return this.#generationId;
  }

  get rebalanceCount(): number {
    return this.#rebalanceCount;
  }

  get protocolType(): string | null {
    return this.#protocolType;
  }

  /** The protocol chosen for the current generation; null before the first and when Empty. */
  get protocolName(): string | null {
    return this.#protocolName;
  }

  get leaderId(): string | null {
    return this.#leaderId;
  }

  get members(): ReadonlyMap<string, GroupMember> {
    return this.#members;
  }

  get pendingMembers(): ReadonlyMap<string, number> {
    return this.#pendingMembers;
  }

  get rebalanceDeadlineMs(): number | undefined {
    return this.#rebalanceDeadlineMs;
  }

  get stateChangedMs(): number {
    return this.#stateChangedMs;
  }

  /** Kafka's isSubscribedToTopic, as of the start of the current generation. */
  isSubscribedTo(topic: string): boolean {
    return isSubscribedTo(this.#subscribedTopics, { protocolType: this.#protocolType, topic });
  }

  /** JoinGroup on a group that is not Dead: member ids handed out, protocol checks, rebalances. */
  join(request: JoinRequest, nowMs: number, effects: GroupEffects): Answer<JoinResult> {
    const group = { protocolType: this.#protocolType, members: [...this.#members.values()] };
    if (!acceptsProtocols(group, request)) {
      return now(joinError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, request.memberId));
    }
    const instanceId = request.groupInstanceId;
    if (request.memberId === "" && instanceId !== null) {
      return this.joinNewStaticMember(request, instanceId, { nowMs, effects });
    }
    if (request.memberId === "") return this.joinNewMember(request, nowMs, effects);
    // Pending member ids are handed out to dynamic members only.
    const refused = instanceId === null ? ErrorCode.NONE : this.validate(request);
    if (refused !== ErrorCode.NONE) return now(joinError(refused, request.memberId));
    if (this.#pendingMembers.delete(request.memberId)) {
      return this.addMember(request, request.memberId, { nowMs, effects });
    }
    const member = this.#members.get(request.memberId);
    if (member === undefined) return now(joinError(ErrorCode.UNKNOWN_MEMBER_ID, request.memberId));
    return this.rejoin(member, request, { nowMs, effects });
  }

  /** SyncGroup: the leader's assignment makes the group Stable and is handed to every member. */
  sync(request: SyncRequest, nowMs: number, effects: GroupEffects): Answer<SyncResult> {
    const refuse = (errorCode: number): Answer<SyncResult> => now(syncError(errorCode));
    const refused = this.validate(request);
    const member = this.#members.get(request.memberId);
    if (refused !== ErrorCode.NONE || member === undefined) return refuse(refused);
    if (request.generationId !== this.#generationId) return refuse(ErrorCode.ILLEGAL_GENERATION);
    const isTypeWrong = request.protocolType !== null && request.protocolType !== this.protocolType;
    const isNameWrong = request.protocolName !== null && request.protocolName !== this.protocolName;
    if (isTypeWrong || isNameWrong) return refuse(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    switch (this.#state) {
      case "Empty":
      case "Dead":
        return refuse(ErrorCode.UNKNOWN_MEMBER_ID);
      case "PreparingRebalance":
        return refuse(ErrorCode.REBALANCE_IN_PROGRESS);
      case "Stable":
        this.refreshSession(member, nowMs, effects);
        return now(assignmentOf(this, member));
      case "CompletingRebalance":
        member.isAwaitingSync = true;
        this.refreshSession(member, nowMs, effects);
        if (member.memberId === this.#leaderId && this.#storingAssignment === undefined) {
          this.storeAssignment(request.assignments, effects);
        }
        return { kind: "later", memberId: member.memberId };
      default:
        return assertNever(this.#state);
    }
  }

  /** Heartbeat: refreshes the session, or says why the member must rejoin. */
  heartbeat(
    request: MemberIdentity & { readonly generationId: number },
    nowMs: number,
    effects: GroupEffects,
  ): number {
    if (this.#state === "Dead") return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    if (this.#state === "Empty") return ErrorCode.UNKNOWN_MEMBER_ID;
    const refused = this.validate(request);
    const member = this.#members.get(request.memberId);
    if (refused !== ErrorCode.NONE || member === undefined) return refused;
    if (request.generationId !== this.#generationId) return ErrorCode.ILLEGAL_GENERATION;
    this.refreshSession(member, nowMs, effects);
    return this.#state === "PreparingRebalance" ? ErrorCode.REBALANCE_IN_PROGRESS : ErrorCode.NONE;
  }

  /**
   * LeaveGroup of one member; its per-member error code. An admin removes a static member by its
   * instance id alone, with no member id (KIP-345).
   */
  leave(leaving: MemberIdentity, nowMs: number, effects: GroupEffects): number {
    if (this.#state === "Dead") return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    let memberId = leaving.memberId;
    if (memberId === "") {
      const holder = this.#staticMembers.memberIdOf(leaving.groupInstanceId);
      if (holder === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
      memberId = holder;
    } else if (this.#pendingMembers.delete(memberId)) {
      this.maybeCompleteJoin(nowMs, effects);
      return ErrorCode.NONE;
    } else {
      const refused = this.validate(leaving);
      if (refused !== ErrorCode.NONE) return refused;
    }
    const member = this.#members.get(memberId);
    assert(member !== undefined, "a validated or static member id is a member");
    this.removeMember(member, nowMs, effects);
    return ErrorCode.NONE;
  }

  /**
   * Whether a commit from this member and generation is accepted (Kafka's validateOffsetCommit
   * for classic groups); generation -1 commits outside any generation while the group is Empty.
   */
  validateOffsetCommit(commit: MemberIdentity & { readonly generationId: number }): number {
    if (this.#state === "Dead") return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    if (commit.generationId < 0 && this.#state === "Empty") return ErrorCode.NONE;
    const refused = this.validate(commit);
    if (refused !== ErrorCode.NONE) return refused;
    if (commit.generationId !== this.#generationId) return ErrorCode.ILLEGAL_GENERATION;
    // The member knows the generation but has no assignment yet: it retries after SyncGroup.
    if (this.#state === "CompletingRebalance") return ErrorCode.REBALANCE_IN_PROGRESS;
    return ErrorCode.NONE;
  }

  /** Handles the group's deadlines that are due: the rebalance timeout and member sessions. */
  onDeadline(nowMs: number, effects: GroupEffects): void {
    for (const [memberId, deadlineMs] of this.#pendingMembers) {
      if (deadlineMs <= nowMs) this.#pendingMembers.delete(memberId);
    }
    for (const member of [...this.#members.values()]) {
      // Members waiting for a join or sync answer are kept alive, as in Kafka.
      const isKeptAlive = member.isAwaitingJoin || member.isAwaitingSync;
      if (!isKeptAlive && member.sessionDeadlineMs <= nowMs) {
        this.removeMember(member, nowMs, effects);
      }
    }
    const deadlineMs = this.#rebalanceDeadlineMs;
    if (this.#state === "PreparingRebalance" && deadlineMs !== undefined && deadlineMs <= nowMs) {
      this.onRebalanceDeadline(nowMs, effects);
    } else {
      this.maybeCompleteJoin(nowMs, effects);
    }
  }

  /**
   * The record of generation `generationId`'s rebalance is durable (NONE: Stable, assignments
   * handed out) or failed (the error to the members, and a rebalance), unless a rebalance began.
   */
  onAssignmentStored(stored: StoredRecord, nowMs: number, effects: GroupEffects): void {
    const { generationId, errorCode } = stored;
    const assignment = this.#storingAssignment;
    const isCurrent = this.#state === "CompletingRebalance" && generationId === this.#generationId;
    if (!isCurrent || assignment === undefined) return;
    const isStored = errorCode === ErrorCode.NONE;
    for (const member of this.#members.values()) {
      const assigned = isStored ? assignment.get(member.memberId) : undefined;
      member.assignment = assigned ?? new Uint8Array(0);
    }
    if (isStored) this.transitionTo("Stable", nowMs);
    for (const member of this.#members.values()) this.answerSync(member, effects, errorCode);
    if (!isStored) this.startOrJoinRebalance(nowMs, effects);
  }

  /** DeleteGroups, once the group's offsets are gone: the group is Dead. */
  markDeleted(): void {
    // The group is dropped at once, so when it died is not recorded.
    this.transitionTo("Dead", this.#stateChangedMs);
  }

  /** Its partition moved away: waiting requests get NOT_COORDINATOR, the group is Dead. */
  unload(effects: GroupEffects): void {
    for (const member of this.#members.values()) {
      const refused = refusalsOfWaiting(this.groupId, member, ErrorCode.NOT_COORDINATOR);
      for (const delivery of refused) effects.deliver(delivery);
    }
    this.transitionTo("Dead", this.#stateChangedMs);
  }

  private joinNewMember(
    request: JoinRequest,
    nowMs: number,
    effects: GroupEffects,
  ): Answer<JoinResult> {
    const memberId = request.newMemberId;
    if (this.#members.size + this.#pendingMembers.size >= this.config.maxSize) {
      return now(joinError(ErrorCode.GROUP_MAX_SIZE_REACHED, ""));
    }
    if (request.requiresKnownMemberId && request.groupInstanceId === null) {
      // KIP-394: the member must come back with this id within its session timeout.
      const deadlineMs = nowMs + request.sessionTimeoutMs;
      this.#pendingMembers.set(memberId, deadlineMs);
      effects.scheduleDeadline(deadlineMs);
      return now(joinError(ErrorCode.MEMBER_ID_REQUIRED, memberId));
    }
    return this.addMember(request, memberId, { nowMs, effects });
  }

  /**
   * A static member without a member id: a new one joins as any new member; a restarted one takes
   * the place of its instance id's holder (Kafka's updateStaticMemberThenRebalanceOrCompleteJoin):
   * at once in a Stable group whose protocol it does not change, else by a rebalance, since the
   * leader may have assigned partitions to the old member id.
   */
  private joinNewStaticMember(
    request: JoinRequest,
    instanceId: string,
    at: { readonly nowMs: number; readonly effects: GroupEffects },
  ): Answer<JoinResult> {
    const holderId = this.#staticMembers.memberIdOf(instanceId);
    const holder = holderId === undefined ? undefined : this.#members.get(holderId);
    if (holder === undefined) return this.joinNewMember(request, at.nowMs, at.effects);
    assert(this.#state !== "Empty" && this.#state !== "Dead", "a static member is in the group");
    const previousLeaderId = this.#leaderId;
    const { newMemberId } = request;
    const member = this.replaceStaticMember(holder, { instanceId, newMemberId }, at.effects);
    member.protocols = request.protocols;
    member.sessionTimeoutMs = request.sessionTimeoutMs;
    member.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
    this.refreshSession(member, at.nowMs, at.effects);
    const members = [...this.#members.values()];
    if (this.#state === "Stable" && selectProtocol(members) === this.#protocolName) {
      const current = joinResultOf(this, member.memberId);
      at.effects.store(recordOf(this)); // its new id: the driver answers once it is durable
      return now(replacedJoinResult(current, { previousLeaderId, request }));
    }
    member.isAwaitingJoin = true;
    this.startOrJoinRebalance(at.nowMs, at.effects);
    return { kind: "later", memberId: member.memberId };
  }

  /**
   * Moves a static member to a new member id, keeping its assignment; the old incarnation's
   * waiting requests are answered FENCED_INSTANCE_ID (Kafka's ClassicGroup.replaceStaticMember).
   */
  private replaceStaticMember(
    old: Member,
    { instanceId, newMemberId }: { readonly instanceId: string; readonly newMemberId: string },
    effects: GroupEffects,
  ): Member {
    const oldMemberId = old.memberId;
    const fenced = refusalsOfWaiting(this.groupId, old, ErrorCode.FENCED_INSTANCE_ID);
    for (const delivery of fenced) effects.deliver(delivery);
    const fresh = { memberId: newMemberId, isAwaitingJoin: false, isAwaitingSync: false };
    const member: Member = { ...old, ...fresh };
    this.#members.delete(oldMemberId);
    this.#members.set(newMemberId, member);
    if (this.#leaderId === oldMemberId) this.#leaderId = newMemberId;
    this.#staticMembers.assign(instanceId, newMemberId);
    return member;
  }

  private addMember(
    request: JoinRequest,
    memberId: string,
    at: { readonly nowMs: number; readonly effects: GroupEffects },
  ): Answer<JoinResult> {
    const member: Member = {
      memberId,
      groupInstanceId: request.groupInstanceId,
      clientId: request.clientId,
      clientHost: request.clientHost,
      sessionTimeoutMs: request.sessionTimeoutMs,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
      protocols: request.protocols,
      assignment: new Uint8Array(0),
      isAwaitingJoin: true,
      isAwaitingSync: false,
      sessionDeadlineMs: at.nowMs + request.sessionTimeoutMs,
    };
    if (this.#members.size === 0) this.#protocolType = request.protocolType;
    this.#members.set(memberId, member);
    if (member.groupInstanceId !== null)
      this.#staticMembers.assign(member.groupInstanceId, memberId);
    if (this.#leaderId === null) this.#leaderId = memberId;
    // During an initial delay a new member makes the group wait one more round.
    if (this.#initialDelay !== undefined) this.#initialDelay.hasNewMember = true;
    this.startOrJoinRebalance(at.nowMs, at.effects);
    return { kind: "later", memberId };
  }

  private rejoin(
    member: Member,
    request: JoinRequest,
    at: { readonly nowMs: number; readonly effects: GroupEffects },
  ): Answer<JoinResult> {
    const isSameMetadata = sameProtocols(member.protocols, request.protocols);
    const isSettled = this.#state === "CompletingRebalance" || this.#state === "Stable";
    // A member that lost its join answer, or a follower rejoining unchanged, gets the current
    // generation again without a rebalance (Kafka's rule for both states).
    const isLeader = member.memberId === this.#leaderId;
    if (isSettled && isSameMetadata && (this.#state === "CompletingRebalance" || !isLeader)) {
      this.refreshSession(member, at.nowMs, at.effects);
      return now(joinResultOf(this, member.memberId));
    }
    member.protocols = request.protocols;
    member.sessionTimeoutMs = request.sessionTimeoutMs;
    member.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
    member.isAwaitingJoin = true;
    this.startOrJoinRebalance(at.nowMs, at.effects);
    return { kind: "later", memberId: member.memberId };
  }

  private startOrJoinRebalance(nowMs: number, effects: GroupEffects): void {
    if (this.#state !== "PreparingRebalance") this.prepareRebalance(nowMs, effects);
    this.maybeCompleteJoin(nowMs, effects);
  }

  /** Writes the group with the leader's assignment (members it left out get an empty one). */
  private storeAssignment(assignments: SyncRequest["assignments"], effects: GroupEffects): void {
    const byMember = new Map(assignments.map((a) => [a.memberId, a.assignment]));
    const assignment = new Map<string, Uint8Array>();
    for (const memberId of this.#members.keys()) {
      assignment.set(memberId, byMember.get(memberId) ?? new Uint8Array(0));
    }
    this.#storingAssignment = assignment;
    effects.store(recordOf(this, assignment));
  }

  /** Kafka's prepareRebalance; pending syncs are answered, their assignment being void. */
  private prepareRebalance(nowMs: number, effects: GroupEffects): void {
    assert(this.#state !== "Dead", "a dead group does not rebalance");
    if (this.#state === "CompletingRebalance") {
      for (const member of this.#members.values()) this.answerSync(member, effects);
    }
    const wasEmpty = this.#state === "Empty";
    this.transitionTo("PreparingRebalance", nowMs);
    const rebalanceTimeoutMs = this.maxRebalanceTimeoutMs();
    if (wasEmpty && this.config.initialRebalanceDelayMs > 0) {
      const delayMs = Math.min(this.config.initialRebalanceDelayMs, rebalanceTimeoutMs);
      this.#initialDelay = { remainingMs: rebalanceTimeoutMs - delayMs, hasNewMember: false };
      this.setRebalanceDeadline(nowMs + delayMs, effects);
    } else {
      this.#initialDelay = undefined;
      this.setRebalanceDeadline(nowMs + rebalanceTimeoutMs, effects);
    }
  }

  /** Completes the join phase when every member has rejoined (outside the initial delay). */
  private maybeCompleteJoin(nowMs: number, effects: GroupEffects): boolean {
    if (this.#state !== "PreparingRebalance" || this.#initialDelay !== undefined) return false;
    const hasAllJoined = [...this.#members.values()].every((member) => member.isAwaitingJoin);
    if (!hasAllJoined || this.#pendingMembers.size > 0) return false;
    this.completeJoin(nowMs, effects);
    return true;
  }

  /** Kafka's removeMember: a member left or expired, and the rest rebalance. */
  private removeMember(member: Member, nowMs: number, effects: GroupEffects): void {
    this.#members.delete(member.memberId);
    this.#staticMembers.release(member.groupInstanceId);
    if (member.isAwaitingJoin) {
      const result = joinError(ErrorCode.UNKNOWN_MEMBER_ID, member.memberId);
      effects.deliver({ kind: "join", groupId: this.groupId, memberId: member.memberId, result });
    }
    if (member.isAwaitingSync) this.answerSync(member, effects);
    if (this.#leaderId === member.memberId) this.#leaderId = this.firstMemberId();
    if (this.#state === "Stable" || this.#state === "CompletingRebalance") {
      this.prepareRebalance(nowMs, effects);
    }
    if (this.#state === "PreparingRebalance") this.maybeCompleteJoin(nowMs, effects);
  }

  private onRebalanceDeadline(nowMs: number, effects: GroupEffects): void {
    const delay = this.#initialDelay;
    if (delay !== undefined && delay.hasNewMember && delay.remainingMs > 0) {
      // Kafka's InitialDelayedJoin: new members arrived, so wait another round within the budget.
      const delayMs = Math.min(this.config.initialRebalanceDelayMs, delay.remainingMs);
      this.#initialDelay = { remainingMs: delay.remainingMs - delayMs, hasNewMember: false };
      this.setRebalanceDeadline(nowMs + delayMs, effects);
      return;
    }
    this.completeJoin(nowMs, effects);
  }

  /** Ends the join phase: drops members that did not rejoin, starts the next generation. */
  private completeJoin(nowMs: number, effects: GroupEffects): void {
    this.#initialDelay = undefined;
    for (const member of [...this.#members.values()]) {
      // A static member that missed the rebalance stays until its session ends (KIP-345).
      const isDropped = !member.isAwaitingJoin && member.groupInstanceId === null;
      if (isDropped) this.#members.delete(member.memberId);
    }
    const joined = [...this.#members.values()].filter((member) => member.isAwaitingJoin);
    if (joined.length === 0 && this.#members.size > 0) {
      // Only absent static members are left: Kafka waits another rebalance timeout for them.
      this.setRebalanceDeadline(nowMs + this.maxRebalanceTimeoutMs(), effects);
      return;
    }
    const leader = this.#leaderId === null ? undefined : this.#members.get(this.#leaderId);
    if (leader?.isAwaitingJoin !== true) this.#leaderId = joined[0]?.memberId ?? null;
    this.#generationId += 1;
    const members = [...this.#members.values()];
    this.#protocolName = members.length === 0 ? null : selectProtocol(members);
    const protocol = { protocolType: this.#protocolType, protocolName: this.#protocolName };
    this.#subscribedTopics = subscribedTopicsOf({ ...protocol, members });
    if (members.length === 0) {
      this.transitionTo("Empty", nowMs);
      return effects.store(recordOf(this));
    }
    this.transitionTo("CompletingRebalance", nowMs);
    for (const member of this.#members.values()) {
      const isAwaitingJoin = member.isAwaitingJoin;
      member.isAwaitingJoin = false;
      member.assignment = new Uint8Array(0);
      this.refreshSession(member, nowMs, effects);
      if (!isAwaitingJoin) continue;
      const result = joinResultOf(this, member.memberId);
      effects.deliver({ kind: "join", groupId: this.groupId, memberId: member.memberId, result });
    }
  }

  /** Answers a member's waiting SyncGroup with its assignment, or `refusal`. */
  private answerSync(
    member: Member,
    effects: GroupEffects,
    refusal: number = ErrorCode.REBALANCE_IN_PROGRESS,
  ): void {
    if (!member.isAwaitingSync) return;
    member.isAwaitingSync = false;
    const result = this.#state === "Stable" ? assignmentOf(this, member) : syncError(refusal);
    effects.deliver({ kind: "sync", groupId: this.groupId, memberId: member.memberId, result });
  }

  private validate(member: MemberIdentity): number {
    return this.#staticMembers.validate(member, (memberId) => this.#members.has(memberId));
  }

  private refreshSession(member: Member, nowMs: number, effects: GroupEffects): void {
    member.sessionDeadlineMs = nowMs + member.sessionTimeoutMs;
    effects.scheduleDeadline(member.sessionDeadlineMs);
  }

  private transitionTo(state: GroupState, nowMs: number): void {
    assert(PREVIOUS_STATES[state].includes(this.#state), `no transition ${this.#state} → ${state}`);
    this.#state = state;
    this.#stateChangedMs = nowMs;
    this.#storingAssignment = undefined;
    if (state === "PreparingRebalance") this.#rebalanceCount++;
    else this.#rebalanceDeadlineMs = undefined;
  }

  private setRebalanceDeadline(atMs: number, effects: GroupEffects): void {
    this.#rebalanceDeadlineMs = atMs;
    effects.scheduleDeadline(atMs);
  }

  private maxRebalanceTimeoutMs(): number {
    let maxMs = 0;
    for (const member of this.#members.values()) maxMs = Math.max(maxMs, member.rebalanceTimeoutMs);
    return maxMs;
  }

  private firstMemberId(): string | null {
    return this.#members.keys().next().value ?? null;
  }
}

function now<Result>(result: Result): Answer<Result> {
  return { kind: "now", result };
}
