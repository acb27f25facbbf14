/**
 * One consumer group of the KIP-848 protocol (Kafka's ConsumerGroup with the
 * consumerGroupHeartbeat rules of GroupMetadataManager); it owns one state machine. Its state
 * follows from its epochs and members:
 *
 * - Empty: no members;
 * - Assigning: the group epoch is ahead of the target assignment epoch (a member joined, left
 *   or changed its subscription, or a subscribed topic changed, since the last assignment);
 * - Reconciling: some member is not yet stable at the target assignment epoch;
 * - Stable: every member owns its target assignment at the target epoch.
 *
 * A heartbeat bumps the group epoch when it changes what the assignor sees, recomputes the
 * target assignment when the group epoch is ahead of it, and moves its member one step
 * towards its target (current-assignment.ts). A member is fenced (removed, bumping the group
 * epoch) when it leaves, when its session expires, or when it keeps partitions it must revoke
 * beyond its rebalance timeout.
 */
import { ErrorCode } from "../common/index.js";
import { assign, type AssignorName, type SubscribedTopic } from "./assignors.js";
import { ConsumerMember } from "./consumer-member.js";
import { SubscribedRegexes, type TopicCatalog } from "./subscribed-regexes.js";
import type { PersistedConsumerGroup } from "./consumer-group-records.js";
import { compileTopicRegex } from "./topic-regex.js";
import { PartitionOwners } from "./partition-owners.js";
import {
  heartbeatError,
  LEAVE_GROUP_MEMBER_EPOCH,
  LEAVE_GROUP_STATIC_MEMBER_EPOCH,
  type ConsumerHeartbeat,
  type ConsumerHeartbeatResult,
  type ConsumerMemberDescription,
} from "./consumer-group-messages.js";
import {
  EMPTY_ASSIGNMENT,
  isSubset,
  sameAssignment,
  type Assignment,
} from "./current-assignment.js";

export type ConsumerGroupState = "Empty" | "Assigning" | "Reconciling" | "Stable";

/** Kafka's `group.consumer.*` settings. */
export interface ConsumerGroupConfig {
  /** `group.consumer.session.timeout.ms`. */
  readonly sessionTimeoutMs: number;
  /** `group.consumer.heartbeat.interval.ms`. */
  readonly heartbeatIntervalMs: number;
  /** `group.consumer.max.size`. */
  readonly maxSize: number;
  /** `group.consumer.assignors`: the first is used unless members name another. */
  readonly assignors: readonly AssignorName[];
}

export const DEFAULT_CONSUMER_GROUP_CONFIG: ConsumerGroupConfig = Object.freeze({
  sessionTimeoutMs: 45_000,
  heartbeatIntervalMs: 5_000,
  maxSize: 2_147_483_647,
  assignors: ["uniform", "range"] as const,
});

/** Where a group asks for its next deadline to be run. */
export interface ConsumerGroupEffects {
  readonly scheduleDeadline: (atMs: number) => void;
}

export class ConsumerGroup {
  private groupEpochValue = 0;
  private epochAtStart = 0; // the group epoch when it was made or loaded
  private assignmentEpochValue = 0;
  private readonly membersById = new Map<string, ConsumerMember>();
  private readonly targets = new Map<string, Assignment>();
  private readonly owners = new PartitionOwners();
  private subscriptionSignature = "";
  private subscribedTopicsValue: readonly SubscribedTopic[] = [];
  private readonly regexes = new SubscribedRegexes();

  constructor(
    readonly groupId: string,
    private readonly config: ConsumerGroupConfig,
  ) {}

  /**
   * A group as its records hold it, after a load of its offsets partition (the caller starts its
   * members' sessions). Its regexes are resolved at the next heartbeat.
   */
  static restore(
    groupId: string,
    config: ConsumerGroupConfig,
    persisted: PersistedConsumerGroup,
  ): ConsumerGroup {
    const group = new ConsumerGroup(groupId, config);
    group.groupEpochValue = persisted.groupEpoch;
    group.epochAtStart = persisted.groupEpoch;
    group.assignmentEpochValue = persisted.assignmentEpoch;
    group.subscribedTopicsValue = persisted.subscribedTopics;
    group.subscriptionSignature = subscriptionSignatureOf(persisted.subscribedTopics);
    for (const persistedMember of persisted.members) {
      const member = ConsumerMember.restore(persistedMember);
      group.membersById.set(member.memberId, member);
      group.targets.set(member.memberId, persistedMember.target);
      group.owners.claim(member.memberId, member.reconciliation);
    }
    return group;
  }

  /** The group as its records hold it. */
  persisted(): PersistedConsumerGroup {
    return {
      groupEpoch: this.groupEpochValue,
      assignmentEpoch: this.assignmentEpochValue,
      subscribedTopics: this.subscribedTopicsValue,
      members: [...this.membersById.values()].map((member) =>
        member.persisted(this.targets.get(member.memberId) ?? EMPTY_ASSIGNMENT),
      ),
    };
  }

  get groupEpoch(): number {
    return this.groupEpochValue;
  }
  /** The group epoch's bumps since it was made or loaded here (Kafka's rebalance count). */
  get rebalanceCount(): number {
    return this.groupEpochValue - this.epochAtStart;
  }
  get assignmentEpoch(): number {
    return this.assignmentEpochValue;
  }

  get members(): ReadonlyMap<string, ConsumerMember> {
    return this.membersById;
  }

  get state(): ConsumerGroupState {
    if (this.membersById.size === 0) return "Empty";
    if (this.groupEpochValue > this.assignmentEpochValue) return "Assigning";
    for (const member of this.membersById.values()) {
      if (!member.isReconciledTo(this.assignmentEpochValue)) return "Reconciling";
    }
    return "Stable";
  }

  /** The group's assignor: the one most members name, else the first configured. */
  get assignorName(): AssignorName {
    const votes = new Map<AssignorName, number>();
    for (const member of this.membersById.values()) {
      const name = this.config.assignors.find((known) => known === member.serverAssignor);
      if (name !== undefined) votes.set(name, (votes.get(name) ?? 0) + 1);
    }
    let best: AssignorName | undefined;
    for (const [name, count] of votes)
      if (best === undefined || count > (votes.get(best) ?? 0)) best = name;
    const first = this.config.assignors[0];
    if (first === undefined) throw new Error("group.consumer.assignors is empty");
    return best ?? first;
  }

  /**
   * A heartbeat already checked for its form (epoch 0 joins, -1 leaves, > 0 heartbeats) against
   * the image's `topics`, against which regular expressions are resolved again when they changed.
   */
  heartbeat(
    request: ConsumerHeartbeat,
    options: { readonly nowMs: number; readonly topics: TopicCatalog },
    effects: ConsumerGroupEffects,
  ): ConsumerHeartbeatResult {
    const isLeave =
      request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH ||
      request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH;
    if (isLeave) return this.leave(request);
    const found = this.findMember(request);
    if (found.kind === "refused") return found.result;
    const existing = found.member;
    const refused = this.checkMember(existing, request) ?? checkRegex(request);
    if (refused !== null) return refused;
    const member = existing ?? new ConsumerMember(request.memberId);
    const hasSubscriptionChanged = member.update(request);
    this.membersById.set(member.memberId, member);
    const hasResolutionChanged = this.regexes.refresh(this.subscribedRegexes(), options.topics);
    const subscribedTopics = this.subscribedTopics(options.topics);
    const signature = subscriptionSignatureOf(subscribedTopics);
    const hasChanged = hasSubscriptionChanged || hasResolutionChanged;
    if (hasChanged || signature !== this.subscriptionSignature) {
      this.subscriptionSignature = signature;
      this.subscribedTopicsValue = subscribedTopics;
      this.groupEpochValue += 1;
    }
    if (this.groupEpochValue > this.assignmentEpochValue) this.computeTargets(options.topics);
    const before = member.reconciliation.assigned;
    const rebalanceDeadline = this.reconcile(member, request, options.nowMs);
    if (rebalanceDeadline !== undefined) effects.scheduleDeadline(rebalanceDeadline);
    member.sessionDeadlineMs = options.nowMs + this.config.sessionTimeoutMs;
    effects.scheduleDeadline(member.sessionDeadlineMs);
    const isFull =
      request.memberEpoch === 0 ||
      (request.rebalanceTimeoutMs !== -1 &&
        request.subscribedTopicNames !== null &&
        request.topicPartitions !== null);
    const assigned = member.reconciliation.assigned;
    return {
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      memberId: member.memberId,
      memberEpoch: member.reconciliation.memberEpoch,
      heartbeatIntervalMs: this.config.heartbeatIntervalMs,
      assignment: isFull || !sameAssignment(assigned, before) ? assigned : null,
    };
  }

  /** Fences members whose session or rebalance timeout passed; whether any was. */
  onDeadline(nowMs: number): boolean {
    let hasFenced = false;
    for (const member of [...this.membersById.values()]) {
      const isExpired =
        member.sessionDeadlineMs <= nowMs ||
        (member.rebalanceDeadline !== null && member.rebalanceDeadline.atMs <= nowMs);
      if (!isExpired) continue;
      this.fence(member);
      hasFenced = true;
    }
    return hasFenced;
  }

  /**
   * Whether an OffsetCommit (or OffsetFetch with `isFetch`) from this member and epoch is
   * accepted: epoch -1 with no members is a commit from outside the group, as an admin's;
   * otherwise the member must exist (UNKNOWN_MEMBER_ID) at its current epoch
   * (STALE_MEMBER_EPOCH).
   */
  validateOffsetRequest(memberId: string, memberEpoch: number): number {
    if (memberEpoch < 0 && this.membersById.size === 0) return ErrorCode.NONE;
    const member = this.membersById.get(memberId);
    if (member === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
    if (member.reconciliation.memberEpoch !== memberEpoch) return ErrorCode.STALE_MEMBER_EPOCH;
    return ErrorCode.NONE;
  }

  /** The members as ConsumerGroupDescribe shows them. */
  describeMembers(): ConsumerMemberDescription[] {
    return [...this.membersById.values()].map((member) =>
      member.describe(this.targets.get(member.memberId) ?? EMPTY_ASSIGNMENT),
    );
  }

  /**
   * The names of every topic some member subscribes to, by name or through its regular
   * expression as last resolved.
   */
  subscribedTopicNames(): Set<string> {
    const names = new Set<string>();
    for (const member of this.membersById.values()) {
      for (const name of this.memberTopicNames(member)) names.add(name);
    }
    return names;
  }

  /** What a member subscribes to: its topic names and its regex's topics. */
  private memberTopicNames(member: ConsumerMember): readonly string[] {
    const regex = member.subscribedTopicRegex;
    if (regex === null) return member.subscribedTopicNames;
    const names = new Set([...member.subscribedTopicNames, ...this.regexes.topicsOf(regex)]);
    return [...names].sort();
  }

  private subscribedRegexes(): Set<string> {
    const regexes = new Set<string>();
    for (const member of this.membersById.values()) {
      if (member.subscribedTopicRegex !== null) regexes.add(member.subscribedTopicRegex);
    }
    return regexes;
  }

  private checkMember(
    existing: ConsumerMember | undefined,
    request: ConsumerHeartbeat,
  ): ConsumerHeartbeatResult | null {
    if (existing === undefined) {
      if (request.memberEpoch !== 0) return heartbeatError(ErrorCode.UNKNOWN_MEMBER_ID, request);
      if (this.membersById.size >= this.config.maxSize) {
        return heartbeatError(ErrorCode.GROUP_MAX_SIZE_REACHED, request);
      }
      return null;
    }
    const known = existing.reconciliation;
    // A member one epoch behind that owns no more than it is assigned only lost the answer
    // that moved it on, so it is accepted (Kafka's throwIfConsumerGroupMemberEpochIsInvalid).
    const isLostAnswer =
      request.memberEpoch === known.previousMemberEpoch &&
      isSubset(request.topicPartitions, known.assigned);
    if (request.memberEpoch > known.memberEpoch) {
      return heartbeatError(ErrorCode.FENCED_MEMBER_EPOCH, request);
    }
    if (request.memberEpoch < known.memberEpoch && !isLostAnswer) {
      return heartbeatError(ErrorCode.FENCED_MEMBER_EPOCH, request);
    }
    return null;
  }

  /**
   * The member a heartbeat is for (Kafka's getOrMaybeSubscribeStaticConsumerGroupMember): by
   * member id, or for a static member by instance id. A static member joining (epoch 0) while
   * its instance id's holder left temporarily (epoch -2) replaces it under its new member id;
   * while the holder is still in the group it is UNRELEASED_INSTANCE_ID. Otherwise the instance
   * id must be known (UNKNOWN_MEMBER_ID) and held by this member id (FENCED_INSTANCE_ID).
   */
  private findMember(
    request: ConsumerHeartbeat,
  ):
    | { kind: "found"; member: ConsumerMember | undefined }
    | { kind: "refused"; result: ConsumerHeartbeatResult } {
    const byId = this.membersById.get(request.memberId);
    const { instanceId } = request;
    if (instanceId === null) return { kind: "found", member: byId };
    const refuse = (errorCode: number, message: string) => ({
      kind: "refused" as const,
      result: heartbeatError(errorCode, request, message),
    });
    const holder = [...this.membersById.values()].find((m) => m.instanceId === instanceId);
    const named = `Static member ${request.memberId} with instance id ${instanceId}`;
    if (request.memberEpoch === 0 && holder !== undefined) {
      const hasLeft = holder.reconciliation.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH;
      if (!hasLeft && holder.memberId !== request.memberId) {
        const owner = `the instance id is owned by ${holder.memberId} member`;
        const message = `${named} cannot join the group because ${owner}.`;
        return refuse(ErrorCode.UNRELEASED_INSTANCE_ID, message);
      }
      if (hasLeft) return { kind: "found", member: this.replaceStaticMember(holder, request) };
    }
    if (request.memberEpoch === 0) return { kind: "found", member: holder };
    if (holder === undefined) {
      return refuse(ErrorCode.UNKNOWN_MEMBER_ID, `Instance id ${instanceId} is unknown.`);
    }
    if (holder.memberId !== request.memberId) {
      const fencedBy = `was fenced by member ${holder.memberId}`;
      return refuse(ErrorCode.FENCED_INSTANCE_ID, `${named} ${fencedBy}.`);
    }
    return { kind: "found", member: holder };
  }

  /** Puts a new incarnation of a static member in the place of the one that left. */
  private replaceStaticMember(holder: ConsumerMember, request: ConsumerHeartbeat): ConsumerMember {
    const replacement = holder.replacedBy(request.memberId);
    const target = this.targets.get(holder.memberId) ?? EMPTY_ASSIGNMENT;
    this.owners.release(holder.memberId, holder.reconciliation);
    this.membersById.delete(holder.memberId);
    this.targets.delete(holder.memberId);
    this.membersById.set(replacement.memberId, replacement);
    this.targets.set(replacement.memberId, target);
    this.owners.claim(replacement.memberId, replacement.reconciliation);
    return replacement;
  }

  /**
   * Epoch -1 removes the member; -2 is a static member's temporary leave, which keeps it (and
   * its partitions) until it rejoins or its session ends.
   */
  private leave(request: ConsumerHeartbeat): ConsumerHeartbeatResult {
    const found = this.findMember({ ...request, memberEpoch: LEAVE_GROUP_MEMBER_EPOCH });
    if (found.kind === "refused") return found.result;
    const member = found.member;
    if (member === undefined) return heartbeatError(ErrorCode.UNKNOWN_MEMBER_ID, request);
    const left = { ...heartbeatError(ErrorCode.NONE, request), memberEpoch: request.memberEpoch };
    if (request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
      member.leaveTemporarily(LEAVE_GROUP_STATIC_MEMBER_EPOCH);
      return left;
    }
    this.fence(member);
    return left;
  }

  /** Removes a member and what it owns; the others are reassigned at the next heartbeat. */
  private fence(member: ConsumerMember): void {
    this.owners.release(member.memberId, member.reconciliation);
    this.membersById.delete(member.memberId);
    this.targets.delete(member.memberId);
    this.groupEpochValue += 1;
  }

  private computeTargets(topics: TopicCatalog): void {
    const subscribed = new Map(this.subscribedTopics(topics).map((topic) => [topic.name, topic]));
    const members = [...this.membersById.values()].map((member) => ({
      memberId: member.memberId,
      subscribedTopicNames: this.memberTopicNames(member),
      previousTarget: this.targets.get(member.memberId) ?? EMPTY_ASSIGNMENT,
    }));
    const targets = assign(this.assignorName, { members, topics: subscribed });
    this.targets.clear();
    for (const [memberId, target] of targets) this.targets.set(memberId, target);
    this.assignmentEpochValue = this.groupEpochValue;
  }

  /** One reconciliation step; the rebalance deadline to schedule, if one started. */
  private reconcile(
    member: ConsumerMember,
    request: ConsumerHeartbeat,
    nowMs: number,
  ): number | undefined {
    if (member.isReconciledTo(this.assignmentEpochValue)) return undefined;
    const previous = member.reconciliation;
    const changed = member.reconcile({
      targetEpoch: this.assignmentEpochValue,
      target: this.targets.get(member.memberId) ?? EMPTY_ASSIGNMENT,
      isOwnedByOther: (topicId, partition) =>
        this.owners.isOwnedByOther(member.memberId, topicId, partition),
      owned: request.topicPartitions,
    });
    if (!changed) return undefined;
    this.owners.release(member.memberId, previous);
    this.owners.claim(member.memberId, member.reconciliation);
    const state = member.reconciliation.state;
    if (state !== "unrevokedPartitions") {
      member.rebalanceDeadline = null;
      return undefined;
    }
    const atMs = nowMs + member.rebalanceTimeoutMs;
    member.rebalanceDeadline = { atMs, memberEpoch: member.reconciliation.memberEpoch };
    return atMs;
  }

  private subscribedTopics(topics: TopicCatalog): SubscribedTopic[] {
    const found: SubscribedTopic[] = [];
    for (const name of [...this.subscribedTopicNames()].sort()) {
      const topic = topics.topic(name);
      if (topic !== undefined) found.push({ name, ...topic });
    }
    return found;
  }
}

/**
 * INVALID_REGULAR_EXPRESSION for a regex that does not compile (Kafka's
 * throwIfRegularExpressionIsInvalid), checked before the member changes.
 */
function checkRegex(request: ConsumerHeartbeat): ConsumerHeartbeatResult | null {
  const regex = request.subscribedTopicRegex;
  if (regex === null || regex === "") return null;
  const compiled = compileTopicRegex(regex);
  if (compiled.kind === "valid") return null;
  const description = `is not a valid regular expression: ${compiled.description}`;
  const message = `SubscribedTopicRegex \`${regex}\` ${description}.`;
  return heartbeatError(ErrorCode.INVALID_REGULAR_EXPRESSION, request, message);
}

function subscriptionSignatureOf(topics: readonly SubscribedTopic[]): string {
  return topics.map((topic) => `${topic.name}:${topic.topicId}:${topic.partitionCount}`).join(",");
}
