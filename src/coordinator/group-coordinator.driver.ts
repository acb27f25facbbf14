/**
 * The group coordinator driver (Kafka's GroupCoordinatorService for classic groups): owns the
 * pure state, the one timer for its earliest deadline, the JoinGroup and SyncGroup requests that
 * wait for a rebalance, the loading of `__consumer_offsets` partitions this broker leads, and
 * the durable writing of commits through the replica manager (acks=-1: a commit is visible and
 * answered only once the high watermark covers it), and the transactional commits
 * (TxnOffsetCommit) that wait for their transaction's end marker.
 *
 * This file owns one state machine: the coordinator's partitions, below, with the timers,
 * waiters and writes that hang on them.
 *
 * Each offsets partition is, for this driver, notCoordinator → loading (this broker became its
 * leader) → active (its log is replayed); from loading or active it goes back to notCoordinator
 * when leadership moves. A load that finishes after that is ignored; one that fails leaves the
 * partition loading.
 */
import { ErrorCode } from "../common/index.js";
import { randomUuidBase64, randomUuidText } from "./member-ids.js";
import { heartbeatError, type ConsumerHeartbeatResult } from "./consumer-group-messages.js";
import type { TopicCatalog } from "./subscribed-regexes.js";
import type { ConsumerHeartbeatRequest } from "./consumer-groups.js";
import type { Clock, Logger, Random, Timer, Timers } from "../ports/index.js";
import type { Partition, ReplicaManager } from "../replication/index.js";
import type { TopicPartition } from "../storage/index.js";
import { OFFSETS_TOPIC, offsetsPartitionFor, type GroupConfig } from "./group-config.js";
import { GroupCoordinatorState, type Outcome } from "./group-coordinator-state.js";
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
import { awaitDurable, writeOffsetRecords } from "./offset-writes.driver.js";
import type { TransactionalOffsetsWrite } from "./offset-writes.driver.js";
import { loadOffsetsPartition } from "./offsets-loader.driver.js";
import type { OffsetRecord } from "./offset-records.js";
import { TransactionalOffsets } from "./transactional-offsets.js";
import { ConsumerGroupLog } from "./consumer-group-log.driver.js";
import { ClassicGroupLog } from "./classic-group-log.driver.js";

/** Whether this node coordinates a group now. */
export type CoordinatorStatus = "active" | "loading" | "notCoordinator";

export interface GroupCoordinatorOptions {
  readonly config: GroupConfig;
  readonly replicaManager: ReplicaManager;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
  readonly logger: Logger;
}

type Waiter = (delivery: GroupDelivery) => void;

export class GroupCoordinator {
  readonly state: GroupCoordinatorState;
  /** Offsets committed in transactions, visible once their COMMIT marker is written. */
  readonly transactionalOffsets = new TransactionalOffsets();
  private readonly partitions = new Map<number, { status: "loading" | "active"; epoch: number }>();
  private readonly waiters = new Map<string, Waiter>();
  private timer: { atMs: number; timer: Timer } | undefined;
  private loadEpoch = 0;
  private readonly loads = new Set<Promise<void>>();
  /** Consumer groups (KIP-848) written to their offsets partitions. */
  private readonly consumerLog: ConsumerGroupLog;
  /** Classic groups' GroupMetadata records. */
  private readonly classicLog: ClassicGroupLog;
  /** Writes of groups that deadlines (or classic group changes) asked for, awaited by `close`. */
  private readonly timerWrites = new Set<Promise<unknown>>();
  private readonly stopListening: () => void;
  private isClosed = false;

  constructor(private readonly options: GroupCoordinatorOptions) {
    this.state = new GroupCoordinatorState(options.config);
    this.consumerLog = new ConsumerGroupLog({
      replicaManager: options.replicaManager,
      timers: options.timers,
      partitionFor: (groupId) => this.partitionFor(groupId),
      groupOf: (groupId) => this.state.consumer.group(groupId)?.persisted(),
      nowMs: () => options.clock.nowMs(),
      timeoutMs: OFFSET_COMMIT_TIMEOUT_MS,
    });
    this.classicLog = new ClassicGroupLog({
      replicaManager: options.replicaManager,
      timers: options.timers,
      partitionFor: (groupId) => this.partitionFor(groupId),
      wallClockMs: () => options.clock.nowMs(),
      timeoutMs: OFFSET_COMMIT_TIMEOUT_MS,
    });
    this.stopListening = options.replicaManager.onPartitionRoleChanged((topicPartition) =>
      this.onRoleChanged(topicPartition),
    );
    for (const partition of options.replicaManager.onlinePartitions()) {
      this.onRoleChanged(partition.topicPartition);
    }
  }

  /** The `__consumer_offsets` partition of a group. */
  partitionFor(groupId: string): number {
    return offsetsPartitionFor(groupId, this.options.config.offsetsTopicNumPartitions);
  }

  /** Whether this node coordinates `groupId` now, is loading it, or does not. */
  statusOf(groupId: string): CoordinatorStatus {
    const loaded = this.partitions.get(this.partitionFor(groupId));
    return loaded === undefined ? "notCoordinator" : loaded.status;
  }

  /** The error code of a request for `groupId` that this node cannot serve now, or NONE. */
  errorCodeFor(groupId: string): number {
    const status = this.statusOf(groupId);
    if (status === "loading") return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    if (status === "notCoordinator") return ErrorCode.NOT_COORDINATOR;
    return ErrorCode.NONE;
  }

  /**
   * A member id for a new member: its client id (a static member's instance id) and a random
   * UUID, as Kafka makes them.
   */
  newMemberId(prefix: string): string {
    return `${prefix}-${randomUuidText(this.options.random)}`;
  }

  /** JoinGroup; resolves when the join phase completes for this member (or at once). */
  join(groupId: string, request: JoinRequest): Promise<JoinResult> {
    const refused = this.errorCodeFor(groupId);
    if (refused !== ErrorCode.NONE) return Promise.resolve(joinError(refused, request.memberId));
    const outcome = this.state.join(groupId, request, this.nowMs());
    // A classic group that took the id of an empty consumer group tombstones its records.
    const isReplaced = this.state.consumer.group(groupId) === undefined;
    if (isReplaced && this.consumerLog.hasWritten(groupId)) this.writeLater(groupId);
    const stored = this.writeClassicStores().get(groupId);
    const answer = this.answer(groupId, "join", outcome, (delivery) =>
      delivery.kind === "join" ? delivery.result : joinError(ErrorCode.UNKNOWN_SERVER_ERROR, ""),
    );
    // A static member that took its old place in a Stable group (the one answer given at once
    // with a record written) gets it once the record naming its new id is durable, as in Kafka.
    if (stored === undefined || outcome.result.kind !== "now") return answer;
    return Promise.all([answer, ...stored]).then(([result, ...errorCodes]) => {
      const failed = errorCodes.find((errorCode) => errorCode !== ErrorCode.NONE);
      return failed === undefined ? result : joinError(failed, "");
    });
  }

  /** SyncGroup; resolves when the leader's assignment arrives (or at once). */
  sync(groupId: string, request: SyncRequest): Promise<SyncResult> {
    const refused = this.errorCodeFor(groupId);
    if (refused !== ErrorCode.NONE) return Promise.resolve(syncError(refused));
    const outcome = this.state.sync(groupId, request, this.nowMs());
    return this.answer(groupId, "sync", outcome, (delivery) =>
      delivery.kind === "sync" ? delivery.result : syncError(ErrorCode.UNKNOWN_SERVER_ERROR),
    );
  }

  /** Heartbeat; its error code. */
  heartbeat(groupId: string, request: MemberIdentity & { generationId: number }): number {
    const refused = this.errorCodeFor(groupId);
    if (refused !== ErrorCode.NONE) return refused;
    const outcome = this.state.heartbeat(groupId, request, this.nowMs());
    this.dispatch(outcome.deliveries);
    return outcome.result;
  }

  /** LeaveGroup of several members; a top-level error, or one code per member. */
  leave(
    groupId: string,
    members: readonly MemberIdentity[],
  ): { errorCode: number; members: number[] } {
    const refused = this.errorCodeFor(groupId);
    if (refused !== ErrorCode.NONE) return { errorCode: refused, members: [] };
    const outcome = this.state.leave(groupId, members, this.nowMs());
    this.dispatch(outcome.deliveries);
    return { errorCode: ErrorCode.NONE, members: outcome.result };
  }

  /**
   * ConsumerGroupHeartbeat (KIP-848); a joining member without an id gets a random Uuid. The
   * answer waits until the group's changed records are durable, as Kafka's does.
   */
  async consumerHeartbeat(
    groupId: string,
    request: ConsumerHeartbeatRequest,
    topics: TopicCatalog,
  ): Promise<ConsumerHeartbeatResult> {
    const refused = this.errorCodeFor(groupId);
    if (refused !== ErrorCode.NONE) return heartbeatError(refused, request);
    const isNew = request.memberId === "" && request.memberEpoch === 0;
    const memberId = isNew ? randomUuidBase64(this.options.random) : request.memberId;
    const nowMs = this.nowMs();
    const joined = { ...request, memberId };
    const result = this.state.consumerHeartbeat(groupId, joined, { nowMs, topics });
    this.rescheduleTimer();
    this.writeClassicStores();
    if (result.errorCode !== ErrorCode.NONE) return result;
    const written = await this.consumerLog.persist(groupId);
    return written === ErrorCode.NONE ? result : heartbeatError(written, joined);
  }

  /**
   * DeleteGroups of a group whose offsets' tombstones are durable: the group is forgotten and
   * its records get their tombstones (a consumer group's, or a classic group's GroupMetadata);
   * resolves to NONE once they are durable, or the error.
   */
  async removeGroup(groupId: string): Promise<number> {
    this.state.removeGroup(groupId);
    const classic = this.writeClassicStores();
    const consumer = await this.consumerLog.persist(groupId);
    const classicErrors = await Promise.all(classic.get(groupId) ?? []);
    return [consumer, ...classicErrors].find((code) => code !== ErrorCode.NONE) ?? ErrorCode.NONE;
  }

  /**
   * Writes offset records of `groupId` to its partition and waits until they are durable; the
   * store changes only then. Returns the error code for every record (NONE when written).
   */
  async writeOffsets(
    groupId: string,
    records: readonly OffsetRecord[],
    producer?: TransactionalOffsetsWrite,
  ): Promise<number> {
    const index = this.partitionFor(groupId);
    const lookup = this.options.replicaManager.getPartitionOrError({
      topic: OFFSETS_TOPIC,
      partition: index,
    });
    if (lookup.kind === "error") return ErrorCode.NOT_COORDINATOR;
    const written = await writeOffsetRecords(this.options.replicaManager, lookup.partition, {
      ...{ records, nowMs: this.options.clock.nowMs() },
      ...(producer === undefined ? {} : { producer }),
    });
    if (written.kind === "error") return written.errorCode;
    const durable = await awaitDurable(lookup.partition, written.requiredOffset, {
      timers: this.options.timers,
      timeoutMs: OFFSET_COMMIT_TIMEOUT_MS,
    });
    if (durable !== ErrorCode.NONE) return durable;
    // A transaction's offsets wait for its marker (KIP-98); others are visible now.
    if (producer !== undefined) this.transactionalOffsets.add(index, producer.producerId, records);
    else this.state.replayDurableOffsets(groupId, records, this.nowMs());
    return ErrorCode.NONE;
  }

  /**
   * The end marker of `producerId` is durable on offsets partition `partition`: its pending
   * offsets become the groups' (COMMIT) or are dropped (ABORT).
   */
  completeTransaction(partition: number, producerId: number, committed: boolean): void {
    for (const done of this.transactionalOffsets.complete(partition, producerId, committed)) {
      this.state.replayDurableOffsets(done.groupId, done.records, this.nowMs());
    }
  }

  /** Stops timers and listeners; waiting requests get NOT_COORDINATOR. */
  async close(): Promise<void> {
    this.isClosed = true;
    this.stopListening();
    this.timer?.timer.cancel();
    this.timer = undefined;
    this.dispatch(this.state.unload(() => true));
    this.partitions.clear();
    await Promise.all([...this.loads, ...this.timerWrites, this.consumerLog.drain()]);
    await this.classicLog.drain();
  }

  /** Monotonic time: sessions and rebalances must not jump with the wall clock. */
  private nowMs(): number {
    return this.options.clock.monotonicMs();
  }

  private answer<Result>(
    groupId: string,
    kind: "join" | "sync",
    outcome: Outcome<Answer<Result>>,
    resultOf: (delivery: GroupDelivery) => Result,
  ): Promise<Result> {
    const answer = outcome.result;
    let promise: Promise<Result>;
    if (answer.kind === "now") {
      promise = Promise.resolve(answer.result);
    } else {
      const key = waiterKey(kind, groupId, answer.memberId);
      // A second request from the same member replaces the first, which is told to rejoin.
      this.waiters.get(key)?.(replacedDelivery(kind, groupId, answer.memberId));
      promise = new Promise<Result>((resolve) => {
        this.waiters.set(key, (delivery) => resolve(resultOf(delivery)));
      });
    }
    this.dispatch(outcome.deliveries);
    return promise;
  }

  private dispatch(deliveries: readonly GroupDelivery[]): void {
    for (const delivery of deliveries) {
      const key = waiterKey(delivery.kind, delivery.groupId, delivery.memberId);
      const waiter = this.waiters.get(key);
      this.waiters.delete(key);
      waiter?.(delivery);
    }
    this.rescheduleTimer();
    this.writeClassicStores();
  }

  /**
   * Writes the classic group records the state asked for; a completed rebalance's outcome goes
   * back to its group, which answers the members waiting in SyncGroup. Returns the writes by
   * group id.
   */
  private writeClassicStores(): Map<string, Promise<number>[]> {
    const byGroup = new Map<string, Promise<number>[]>();
    for (const store of this.state.takeClassicStores()) {
      const { groupId, record } = store;
      const written = this.classicLog.write(store);
      byGroup.set(groupId, [...(byGroup.get(groupId) ?? []), written]);
      const done: Promise<void> = written
        .then((errorCode) => {
          if (errorCode !== ErrorCode.NONE) {
            this.options.logger.warn("writing a classic group failed", { groupId, errorCode });
          }
          if (record === null || this.isClosed) return;
          const stored = { generationId: record.generationId, errorCode };
          this.dispatch(this.state.onClassicStored(groupId, stored, this.nowMs()));
        })
        .catch((error: unknown) => {
          this.options.logger.error("writing a classic group failed", { error: String(error) });
        })
        .finally(() => this.timerWrites.delete(done));
      this.timerWrites.add(done);
    }
    return byGroup;
  }

  /** Keeps one timer, for the earliest deadline of the heap. */
  private rescheduleTimer(): void {
    if (this.isClosed) return;
    const nextMs = this.state.nextDeadlineMs();
    if (nextMs === undefined) return;
    if (this.timer !== undefined && this.timer.atMs <= nextMs) return;
    this.timer?.timer.cancel();
    const delayMs = Math.max(0, nextMs - this.nowMs());
    const timer = this.options.timers.schedule(delayMs, () => {
      this.timer = undefined;
      this.dispatch(this.state.tick(this.nowMs()));
      for (const groupId of this.state.consumer.takeTimerChanges()) this.writeLater(groupId);
    });
    this.timer = { atMs: nextMs, timer };
  }

  /** Writes a consumer group a deadline changed; a failure is retried by its next write. */
  private writeLater(groupId: string): void {
    const { logger } = this.options;
    const write: Promise<void> = this.consumerLog
      .persist(groupId)
      .then(
        (errorCode) => {
          if (errorCode !== ErrorCode.NONE) logger.warn("writing a group failed", { errorCode });
        },
        (error: unknown) => logger.error("writing a group failed", { error: String(error) }),
      )
      .finally(() => this.timerWrites.delete(write));
    this.timerWrites.add(write);
  }

  private onRoleChanged(topicPartition: TopicPartition): void {
    if (topicPartition.topic !== OFFSETS_TOPIC || this.isClosed) return;
    const index = topicPartition.partition;
    const lookup = this.options.replicaManager.getPartitionOrError(topicPartition);
    const isLeader = lookup.kind === "online" && lookup.partition.isLeader;
    const current = this.partitions.get(index);
    if (isLeader && current === undefined) {
      if (lookup.kind === "online") this.startLoad(index, lookup.partition);
    } else if (!isLeader && current !== undefined) {
      this.partitions.delete(index);
      this.transactionalOffsets.unload(index);
      const belongs = (groupId: string) => this.partitionFor(groupId) === index;
      this.consumerLog.unload(belongs);
      this.classicLog.unload(belongs);
      this.dispatch(this.state.unload(belongs));
    }
  }

  private startLoad(index: number, partition: Partition): void {
    const epoch = ++this.loadEpoch;
    this.partitions.set(index, { status: "loading", epoch });
    const isCurrent = (): boolean => this.partitions.get(index)?.epoch === epoch;
    this.transactionalOffsets.unload(index);
    const transactional = this.transactionalOffsets;
    const consumerLog = this.consumerLog;
    const onConsumerGroup = consumerLog.loaded.bind(consumerLog);
    const onClassicGroup = (groupId: string) => this.classicLog.loaded(groupId);
    const at = { nowMs: this.nowMs(), isCurrent, transactional, onConsumerGroup, onClassicGroup };
    const load = loadOffsetsPartition(partition, this.state, at)
      .then((report) => {
        if (!isCurrent()) return;
        this.partitions.set(index, { status: "active", epoch });
        this.rescheduleTimer();
        const level = report.records > 0 ? "info" : "debug"; // an empty partition is no news
        this.options.logger[level]("loaded offsets partition", { partition: index, ...report });
      })
      .catch((error: unknown) => {
        // The partition stays unserved (clients see COORDINATOR_LOAD_IN_PROGRESS and retry).
        this.options.logger.error("loading offsets partition failed", {
          partition: index,
          error: String(error),
        });
      })
      .finally(() => this.loads.delete(load));
    this.loads.add(load);
  }
}

/** Kafka's `offsets.commit.timeout.ms`: how long a commit waits for its replicas. */
export const OFFSET_COMMIT_TIMEOUT_MS = 5_000;

function waiterKey(kind: "join" | "sync", groupId: string, memberId: string): string {
  return `${kind}\u0000${groupId}\u0000${memberId}`;
}

function replacedDelivery(kind: "join" | "sync", groupId: string, memberId: string) {
  const errorCode = ErrorCode.REBALANCE_IN_PROGRESS;
  return kind === "join"
    ? { kind, groupId, memberId, result: joinError(errorCode, memberId) }
    : { kind, groupId, memberId, result: syncError(errorCode) };
}
