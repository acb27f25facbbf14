/**
 * The pure group coordinator (Kafka's GroupMetadataManager for classic groups): every group
 * this node coordinates, the committed offsets, and one deadline heap for all their timers.
 * Each call takes nowMs and returns the answers to requests that wait elsewhere (deliveries);
 * the driver (group-coordinator.driver.ts) owns the timer, the waiting requests and the log.
 */
import { ErrorCode } from "../common/index.js";
import { ClassicGroup, type GroupEffects, type StoredRecord } from "./classic-group.js";
import {
  deletableError,
  describeClassicGroup,
  listGroups,
  type GroupDescription,
  type GroupListing,
} from "./group-views.js";
export type { GroupDescription, GroupListing } from "./group-views.js";
import type { ConsumerHeartbeatResult } from "./consumer-group-messages.js";
import type { TopicCatalog } from "./subscribed-regexes.js";
import { ConsumerGroups, type ConsumerHeartbeatRequest } from "./consumer-groups.js";
import { joinRequestError, type GroupConfig } from "./group-config.js";
import {
  joinError,
  syncError,
  type Answer,
  type GroupDelivery,
  type JoinRequest,
  type JoinResult,
  type MemberIdentity,
  type SyncRequest,
  type SyncResult,
} from "./group-messages.js";
import { DeadlineHeap } from "./deadline-heap.js";
import type { OffsetRecord } from "./offset-records.js";
import { OffsetStore, type OffsetView } from "./offset-store.js";
import type { ClassicGroupStore, PersistedClassicGroup } from "./classic-group-records.js";

/** An operation's own answer and the answers it completed for others. */
export interface Outcome<Result> {
  readonly result: Result;
  readonly deliveries: readonly GroupDelivery[];
}

/**
 * Every group of this coordinator, classic and consumer (KIP-848), and their offsets; a group
 * id names one kind or the other.
 */
export class GroupCoordinatorState {
  private readonly groups = new Map<string, ClassicGroup>();
  private readonly store = new OffsetStore();
  private readonly deadlines = new DeadlineHeap<string>();
  /** Classic group records to write, in the order the groups asked for them. */
  private readonly stores: ClassicGroupStore[] = [];
  readonly consumer: ConsumerGroups;

  constructor(readonly config: GroupConfig) {
    this.consumer = new ConsumerGroups(config.consumer);
  }

  /**
   * ConsumerGroupHeartbeat. An empty classic group under the id is replaced (its offsets stay);
   * one with members refuses it (GROUP_ID_NOT_FOUND).
   */
  consumerHeartbeat(
    groupId: string,
    request: ConsumerHeartbeatRequest,
    options: { readonly nowMs: number; readonly topics: TopicCatalog },
  ): ConsumerHeartbeatResult {
    const classicGroup = this.groups.get(groupId);
    const isIdle = classicGroup?.state === "Empty" && classicGroup.pendingMembers.size === 0;
    const classic = classicGroup === undefined ? "none" : isIdle ? "empty" : "members";
    const result = this.consumer.heartbeat(groupId, request, { ...options, classic });
    if (result.replacedClassic) this.forget(groupId);
    return result;
  }

  /** The committed offsets; they change only by replaying records through this state. */
  get offsets(): OffsetView {
    return this.store;
  }

  group(groupId: string): ClassicGroup | undefined {
    return this.groups.get(groupId);
  }

  /** JoinGroup; the session timeout and group id are checked first, as in Kafka. */
  join(groupId: string, request: JoinRequest, nowMs: number): Outcome<Answer<JoinResult>> {
    const refuse = (errorCode: number): Outcome<Answer<JoinResult>> => ({
      result: { kind: "now", result: joinError(errorCode, request.memberId) },
      deliveries: [],
    });
    const invalid = joinRequestError(groupId, request.sessionTimeoutMs, this.config);
    if (invalid !== ErrorCode.NONE) return refuse(invalid);
    const consumerGroup = this.consumer.group(groupId);
    // Sluice does not host classic members in a consumer group (Kafka's online migration).
    if (consumerGroup !== undefined && consumerGroup.state !== "Empty") {
      return refuse(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    }
    if (consumerGroup !== undefined) this.consumer.remove(groupId);
    let group = this.groups.get(groupId);
    if (group === undefined) {
      if (request.memberId !== "") return refuse(ErrorCode.UNKNOWN_MEMBER_ID);
      group = this.createGroup(groupId, nowMs);
    }
    if (group.state === "Dead") return refuse(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    return this.run(group, (effects) => group.join(request, nowMs, effects));
  }

  sync(groupId: string, request: SyncRequest, nowMs: number): Outcome<Answer<SyncResult>> {
    const group = this.groups.get(groupId);
    if (group === undefined) {
      const result = { kind: "now", result: syncError(ErrorCode.UNKNOWN_MEMBER_ID) } as const;
      return { result, deliveries: [] };
    }
    return this.run(group, (effects) => group.sync(request, nowMs, effects));
  }

  heartbeat(
    groupId: string,
    request: MemberIdentity & { readonly generationId: number },
    nowMs: number,
  ): Outcome<number> {
    const group = this.groups.get(groupId);
    if (group === undefined) return { result: ErrorCode.UNKNOWN_MEMBER_ID, deliveries: [] };
    return this.run(group, (effects) => group.heartbeat(request, nowMs, effects));
  }

  /** LeaveGroup for each member; their error codes in order. */
  leave(groupId: string, members: readonly MemberIdentity[], nowMs: number): Outcome<number[]> {
    const group = this.groups.get(groupId);
    if (group === undefined) {
      return { result: members.map(() => ErrorCode.UNKNOWN_MEMBER_ID), deliveries: [] };
    }
    return this.run(group, (effects) =>
      members.map((member) => group.leave(member, nowMs, effects)),
    );
  }

  /** Runs every deadline that is due: rebalance timeouts, initial delays, session expiries. */
  tick(nowMs: number): readonly GroupDelivery[] {
    const dueGroups = new Set(this.deadlines.popDue(nowMs).map((deadline) => deadline.item));
    const deliveries: GroupDelivery[] = [];
    for (const groupId of dueGroups) {
      const group = this.groups.get(groupId);
      if (group === undefined) continue;
      deliveries.push(...this.run(group, (effects) => group.onDeadline(nowMs, effects)).deliveries);
      this.maybeForget(group);
    }
    this.consumer.tick(nowMs);
    return deliveries;
  }

  /** When `tick` next has something to do, or undefined. */
  nextDeadlineMs(): number | undefined {
    const classic = this.deadlines.peekMs();
    const consumer = this.consumer.nextDeadlineMs();
    if (classic === undefined || consumer === undefined) return classic ?? consumer;
    return Math.min(classic, consumer);
  }

  /**
   * Whether a commit from this member and generation is accepted (Kafka's
   * validateOffsetCommit for classic groups); a missing group is created for a commit outside
   * any generation (generation -1), as consumers that assign partitions themselves do.
   */
  validateCommit(
    groupId: string,
    commit: MemberIdentity & { readonly generationId: number },
    nowMs: number,
  ): number {
    // A consumer group member commits with its member epoch in place of the generation.
    const consumerGroup = this.consumer.group(groupId);
    if (consumerGroup !== undefined) {
      return consumerGroup.validateOffsetRequest(commit.memberId, commit.generationId);
    }
    const group = this.groups.get(groupId);
    if (group === undefined) {
      if (commit.generationId >= 0) return ErrorCode.ILLEGAL_GENERATION;
      this.createGroup(groupId, nowMs);
      return ErrorCode.NONE;
    }
    return group.validateOffsetCommit(commit);
  }

  /**
   * Applies offset records once they are durable in the log. A timer may have forgotten the
   * group (Empty, no offsets yet) while its first commit waited for its replicas; a group with
   * offsets must exist, as after a load, so it is made again.
   */
  replayDurableOffsets(groupId: string, records: readonly OffsetRecord[], nowMs: number): void {
    for (const record of records) this.replayOffset(record);
    this.ensureGroupsWithOffsets([groupId], nowMs);
  }

  /** Applies one OffsetCommit record: a value sets the offset, a tombstone removes it. */
  replayOffset(record: OffsetRecord): void {
    this.store.replay(record.key, record.value);
  }

  /** Makes an Empty classic group for each of `groupIds` that has offsets but no group. */
  ensureGroupsWithOffsets(groupIds: Iterable<string>, nowMs: number): void {
    for (const groupId of groupIds) {
      if (!this.store.hasOffsets(groupId) || this.consumer.group(groupId) !== undefined) continue;
      if (!this.groups.has(groupId)) this.createGroup(groupId, nowMs);
    }
  }

  /** DescribeGroups of one group (see classic-group-description.ts). */
  describe(groupId: string): GroupDescription {
    return describeClassicGroup(groupId, this.groups.get(groupId));
  }

  /** ListGroups: every group this coordinator holds, of both kinds. */
  list(): GroupListing[] {
    return listGroups(this.groups.values(), this.consumer.all);
  }

  /** Whether a group may be deleted (group-views.ts's deletableError). */
  checkDeletable(groupId: string): number {
    return deletableError(this.groups.get(groupId), this.consumer.group(groupId));
  }

  /** Forgets a deleted group (its offset tombstones are already durable). */
  removeGroup(groupId: string): void {
    this.consumer.remove(groupId);
    this.groups.get(groupId)?.markDeleted();
    this.forget(groupId);
  }

  /** The classic group records asked for since the last call, oldest first. */
  takeClassicStores(): ClassicGroupStore[] {
    return this.stores.splice(0);
  }

  /** A classic group's record of `generationId` is durable, or failed (ClassicGroup's rules). */
  onClassicStored(groupId: string, stored: StoredRecord, nowMs: number): readonly GroupDelivery[] {
    const group = this.groups.get(groupId);
    if (group === undefined) return [];
    return this.run(group, (effects) => group.onAssignmentStored(stored, nowMs, effects))
      .deliveries;
  }

  /** A classic group rebuilt from its record while its partition loads. */
  loadClassicGroup(groupId: string, record: PersistedClassicGroup, nowMs: number): void {
    const effects = this.effectsOf(groupId, []);
    this.groups.set(groupId, ClassicGroup.loaded(groupId, this.config, { record, nowMs }, effects));
  }

  /**
   * Drops the groups `belongs` selects (their partition moved away), answering their waiting
   * requests with NOT_COORDINATOR so that clients look for the new coordinator.
   */
  unload(belongs: (groupId: string) => boolean): GroupDelivery[] {
    const deliveries: GroupDelivery[] = [];
    for (const group of [...this.groups.values()]) {
      if (!belongs(group.groupId)) continue;
      deliveries.push(...this.run(group, (effects) => group.unload(effects)).deliveries);
      this.groups.delete(group.groupId);
    }
    this.consumer.unload(belongs);
    this.store.unload(belongs);
    return deliveries;
  }

  private createGroup(groupId: string, nowMs: number): ClassicGroup {
    const group = new ClassicGroup(groupId, this.config, nowMs);
    this.groups.set(groupId, group);
    return group;
  }

  /** Runs one operation on a group, collecting its deliveries and deadlines. */
  private run<Result>(
    group: ClassicGroup,
    operation: (effects: GroupEffects) => Result,
  ): Outcome<Result> {
    const deliveries: GroupDelivery[] = [];
    const result = operation(this.effectsOf(group.groupId, deliveries));
    return { result, deliveries };
  }

  private effectsOf(groupId: string, deliveries: GroupDelivery[]): GroupEffects {
    return {
      deliver: (delivery) => deliveries.push(delivery),
      scheduleDeadline: (atMs) => this.deadlines.push(atMs, groupId),
      store: (record) => this.stores.push({ groupId, record }),
    };
  }

  /** Drops a classic group, whose record (if one was written) gets its tombstone. */
  private forget(groupId: string): void {
    if (this.groups.delete(groupId)) this.stores.push({ groupId, record: null });
  }

  /** An Empty group with neither offsets nor pending members is forgotten, as Kafka does. */
  private maybeForget(group: ClassicGroup): void {
    const isIdle = group.state === "Empty" && group.pendingMembers.size === 0;
    if (isIdle && !this.store.hasOffsets(group.groupId)) this.forget(group.groupId);
  }
}
