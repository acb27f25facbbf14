/**
 * Every consumer group (KIP-848) of one coordinator and their deadlines: checks the form of
 * each ConsumerGroupHeartbeat as Kafka's throwIfConsumerGroupHeartbeatRequestIsInvalid does,
 * then hands it to its group. A group id names either a classic or a consumer group; the
 * caller says whether a classic group holds the id, and a heartbeat to a classic group with
 * members is refused with GROUP_ID_NOT_FOUND (Kafka's answer when a classic group is not
 * upgraded online; Sluice does not convert groups with members).
 */
import { ErrorCode } from "../common/index.js";
import { ConsumerGroup, type ConsumerGroupConfig } from "./consumer-group.js";
import {
  heartbeatError,
  LEAVE_GROUP_MEMBER_EPOCH,
  LEAVE_GROUP_STATIC_MEMBER_EPOCH,
  type ConsumerHeartbeat,
  type ConsumerHeartbeatResult,
} from "./consumer-group-messages.js";
import type { TopicCatalog } from "./subscribed-regexes.js";
import type { PersistedConsumerGroup } from "./consumer-group-records.js";
import { DeadlineHeap } from "./deadline-heap.js";

/** A heartbeat as it arrives, before the checks of its form. */
export type ConsumerHeartbeatRequest = ConsumerHeartbeat;

/** What a classic group holds under a group id, if any. */
export type ClassicOccupant = "none" | "empty" | "members";

export class ConsumerGroups {
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly deadlines = new DeadlineHeap<string>();
  /** Groups whose members a deadline fenced since `takeTimerChanges`, to be written. */
  private readonly changedByTimers = new Set<string>();

  constructor(readonly config: ConsumerGroupConfig) {}

  group(groupId: string): ConsumerGroup | undefined {
    return this.groups.get(groupId);
  }

  get all(): IterableIterator<ConsumerGroup> {
    return this.groups.values();
  }

  /**
   * One heartbeat. `classic` says what the classic groups hold under this id; an empty classic
   * group is replaced (its offsets stay), and the caller must then drop it when `replacedClassic`.
   */
  heartbeat(
    groupId: string,
    request: ConsumerHeartbeatRequest,
    options: { readonly nowMs: number; readonly topics: TopicCatalog; classic: ClassicOccupant },
  ): ConsumerHeartbeatResult & { readonly replacedClassic: boolean } {
    const invalid = invalidHeartbeat(groupId, request, this.config.assignors);
    const refuse = (errorCode: number, message: string | null = null) => ({
      ...heartbeatError(errorCode, request, message),
      replacedClassic: false,
    });
    if (invalid !== null) return refuse(invalid.errorCode, invalid.message);
    let group = this.groups.get(groupId);
    let replacedClassic = false;
    if (group === undefined) {
      if (request.memberEpoch !== 0 || options.classic === "members") {
        return refuse(ErrorCode.GROUP_ID_NOT_FOUND, `Group ${groupId} is not a consumer group.`);
      }
      replacedClassic = options.classic === "empty";
      group = new ConsumerGroup(groupId, this.config);
      this.groups.set(groupId, group);
    }
    const scheduled = group;
    const result = group.heartbeat(request, options, {
      scheduleDeadline: (atMs) => this.deadlines.push(atMs, scheduled.groupId),
    });
    this.maybeForget(group);
    return { ...result, replacedClassic };
  }

  /** Fences every member whose session or rebalance timeout passed. */
  tick(nowMs: number): void {
    const due = new Set(this.deadlines.popDue(nowMs).map((deadline) => deadline.item));
    for (const groupId of due) {
      const group = this.groups.get(groupId);
      if (group === undefined) continue;
      if (group.onDeadline(nowMs)) this.changedByTimers.add(groupId);
      this.maybeForget(group);
    }
  }

  /** The ids of the groups deadlines changed since the last call. */
  takeTimerChanges(): string[] {
    const changed = [...this.changedByTimers];
    this.changedByTimers.clear();
    return changed;
  }

  /**
   * Adds a group rebuilt from the log (Kafka's onLoaded): each member's session starts now,
   * and one that must revoke partitions gets its rebalance timeout again.
   */
  restore(groupId: string, persisted: PersistedConsumerGroup, nowMs: number): ConsumerGroup {
    const group = ConsumerGroup.restore(groupId, this.config, persisted);
    for (const member of group.members.values()) {
      member.sessionDeadlineMs = nowMs + this.config.sessionTimeoutMs;
      this.deadlines.push(member.sessionDeadlineMs, groupId);
      const { state, memberEpoch } = member.reconciliation;
      if (state !== "unrevokedPartitions") continue;
      member.rebalanceDeadline = { atMs: nowMs + member.rebalanceTimeoutMs, memberEpoch };
      this.deadlines.push(member.rebalanceDeadline.atMs, groupId);
    }
    this.groups.set(groupId, group);
    return group;
  }

  nextDeadlineMs(): number | undefined {
    return this.deadlines.peekMs();
  }

  /** Drops an empty consumer group, so that a classic group may take its id. */
  remove(groupId: string): void {
    this.groups.delete(groupId);
  }

  /** Drops the groups `belongs` selects (their offsets partition moved away). */
  unload(belongs: (groupId: string) => boolean): void {
    for (const groupId of [...this.groups.keys()]) {
      if (belongs(groupId)) this.groups.delete(groupId);
    }
  }

  /**
   * Group metadata is not written to the log (as for classic groups, only offsets are), so an
   * empty group that never reached an assignment is not kept.
   */
  private maybeForget(group: ConsumerGroup): void {
    if (group.state === "Empty" && group.groupEpoch === 0) this.groups.delete(group.groupId);
  }
}

/** The first rule of Kafka's heartbeat checks that `request` breaks, or null. */
function invalidHeartbeat(
  groupId: string,
  request: ConsumerHeartbeatRequest,
  assignors: readonly string[],
): { errorCode: number; message: string } | null {
  const invalid = (message: string) => ({ errorCode: ErrorCode.INVALID_REQUEST, message });
  if (groupId === "") return invalid("GroupId can't be empty.");
  if (request.instanceId === "") return invalid("InstanceId can't be empty.");
  if (request.rackId === "") return invalid("RackId can't be empty.");
  const epoch = request.memberEpoch;
  if (epoch > 0 || epoch === LEAVE_GROUP_MEMBER_EPOCH) {
    if (request.memberId === "") return invalid("MemberId can't be empty.");
  } else if (epoch === 0) {
    if (request.rebalanceTimeoutMs === -1) {
      return invalid("RebalanceTimeoutMs must be provided in first request.");
    }
    if (request.topicPartitions === null || request.topicPartitions.length > 0) {
      return invalid("TopicPartitions must be empty when (re-)joining.");
    }
    const hasNames = (request.subscribedTopicNames?.length ?? 0) > 0;
    const hasRegex = (request.subscribedTopicRegex ?? "") !== "";
    if (!hasNames && !hasRegex) {
      return invalid("SubscribedTopicNames or SubscribedTopicRegex must be set in first request.");
    }
  } else if (epoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
    if (request.memberId === "") return invalid("MemberId can't be empty.");
    if (request.instanceId === null) return invalid("InstanceId can't be null.");
  } else {
    return invalid("MemberEpoch is invalid.");
  }
  if (request.serverAssignor !== null && !assignors.includes(request.serverAssignor)) {
    const supported = `Supported assignors: ${assignors.join(", ")}.`;
    return {
      errorCode: ErrorCode.UNSUPPORTED_ASSIGNOR,
      message: `ServerAssignor ${request.serverAssignor} is not supported. ${supported}`,
    };
  }
  return null;
}
