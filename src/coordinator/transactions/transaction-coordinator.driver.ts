/**
 * The transaction coordinator driver (Kafka's TransactionCoordinator with its
 * TransactionStateManager and marker channel): owns the pure state (transaction-states.ts), the
 * loading of the `__transaction_state` partitions this broker leads, the acks=-1 writes of each
 * transactional id's new state, the sending of end markers for every PrepareCommit and
 * PrepareAbort (then CompleteCommit or CompleteAbort is written), the periodic abort of
 * transactions past their timeout, and the periodic removal of transactional ids idle for
 * `transactional.id.expiration.ms` (a tombstone each).
 *
 * Each partition of `__transaction_state` is notCoordinator → loading (this broker became its
 * leader; its coordinator epoch is that leader epoch) → active (replayed; the markers of the
 * transactions it left prepared are sent again), and back to notCoordinator when leadership
 * moves. A load or write that ends after that is ignored. This file owns one state machine:
 * those partition states, with the writes, markers and timer that hang on them.
 */
import { ErrorCode } from "../../common/index.js";
import type { Clock, Logger, Timer, Timers } from "../../ports/index.js";
import type { Partition, ReplicaManager } from "../../replication/index.js";
import type { TopicPartition } from "../../storage/index.js";
import { offsetsPartitionFor } from "../group-config.js";
import type { TransactionConfig } from "./transaction-config.js";
import { loadTransactionPartition, writeTransactionRecord } from "./transaction-log.driver.js";
import { TRANSACTION_STATE_TOPIC } from "./transaction-log-records.js";
import type { TransactionMarkerSender } from "./transaction-markers.js";
import type { TopicPartitionRef, TransactionMetadata } from "./transaction-metadata.js";
import {
  describeRefusal,
  describeTransaction,
  listTransactions,
  type TransactionDescription,
  type TransactionFilters,
  type TransactionList,
} from "./transaction-views.js";
import {
  TransactionStates,
  type ProducerIdentity,
  type TransactionDecision,
} from "./transaction-states.js";

export interface TransactionCoordinatorOptions {
  readonly config: TransactionConfig;
  readonly replicaManager: ReplicaManager;
  readonly producerIds: { generateProducerId(): number | undefined };
  readonly markers: TransactionMarkerSender;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
}

/** InitProducerId's answer. */
export interface InitProducerIdResult {
  readonly errorCode: number;
  readonly producerId: number;
  readonly producerEpoch: number;
}

/** How long the coordinator waits before sending markers again, or retrying a write. */
export const MARKER_RETRY_BACKOFF_MS = 100;

interface Loaded {
  readonly status: "loading" | "active";
  readonly loadEpoch: number;
  readonly coordinatorEpoch: number;
}

export class TransactionCoordinator {
  readonly states = new TransactionStates();
  private readonly partitions = new Map<number, Loaded>();
  private readonly background = new Set<Promise<void>>();
  /**
   * The partitions of a prepared transaction whose marker is not written yet; it holds while
   * `prepared` is the id's current value.
   */
  private readonly unmarked = new Map<
    string,
    { readonly prepared: TransactionMetadata; readonly remaining: readonly TopicPartitionRef[] }
  >();
  private readonly stopListening: () => void;
  /** The timers of the periodic aborts and expirations. */
  private readonly periodicTimers = new Set<Timer>();
  private loadEpoch = 0;
  private isClosed = false;

  constructor(private readonly options: TransactionCoordinatorOptions) {
    this.stopListening = options.replicaManager.onPartitionRoleChanged((topicPartition) =>
      this.onRoleChanged(topicPartition),
    );
    for (const partition of options.replicaManager.onlinePartitions()) {
      this.onRoleChanged(partition.topicPartition);
    }
    const { config } = options;
    this.schedulePeriodicWrites({
      intervalMs: config.abortTimedOutTransactionCleanupIntervalMs,
      what: "aborting a transaction past its timeout",
      pick: (nowMs) => this.states.timedOut(nowMs),
      decide: (transactionalId, nowMs) => this.states.abortTimedOut(transactionalId, nowMs),
    });
    this.schedulePeriodicWrites({
      intervalMs: config.removeExpiredTransactionalIdsIntervalMs,
      what: "removing an expired transactional id",
      pick: (nowMs) => this.states.expired(nowMs, config.transactionalIdExpirationMs),
      decide: (transactionalId, nowMs) => this.states.expire(transactionalId, nowMs),
    });
  }

  get config(): TransactionConfig {
    return this.options.config;
  }

  /** The `__transaction_state` partition of a transactional id (as groups map to offsets). */
  partitionFor(transactionalId: string): number {
    return offsetsPartitionFor(transactionalId, this.options.config.stateLogNumPartitions);
  }

  /** The error of a request for `transactionalId` this node cannot serve now, or NONE. */
  errorCodeFor(transactionalId: string): number {
    const loaded = this.partitions.get(this.partitionFor(transactionalId));
    if (loaded === undefined) return ErrorCode.NOT_COORDINATOR;
    if (loaded.status === "loading") return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    return ErrorCode.NONE;
  }

  /** Whether `timeoutMs` is a transaction timeout producers may ask for. */
  isValidTimeout(timeoutMs: number): boolean {
    return timeoutMs > 0 && timeoutMs <= this.options.config.maxTimeoutMs;
  }

  /** InitProducerId with a non-empty transactional id and a valid timeout. */
  async initProducerId(
    transactionalId: string,
    request: { readonly timeoutMs: number; readonly expected: ProducerIdentity | undefined },
  ): Promise<InitProducerIdResult> {
    const refused = (errorCode: number): InitProducerIdResult => ({
      errorCode,
      producerId: -1,
      producerEpoch: -1,
    });
    const notServed = this.errorCodeFor(transactionalId);
    if (notServed !== ErrorCode.NONE) return refused(notServed);
    const decision = this.states.initProducerId(
      transactionalId,
      this.partitionFor(transactionalId),
      {
        ...request,
        nowMs: this.nowMs(),
        newProducerId: () => this.options.producerIds.generateProducerId(),
      },
    );
    if (decision.kind === "error") return refused(decision.errorCode);
    if (decision.kind === "done") return refused(ErrorCode.UNKNOWN_SERVER_ERROR);
    const errorCode = await this.write(decision);
    if (errorCode !== ErrorCode.NONE) return refused(errorCode);
    // The fencing abort is under way: the client retries and gets the next epoch.
    if (decision.isFence) return refused(ErrorCode.CONCURRENT_TRANSACTIONS);
    const { producerId, producerEpoch } = decision.transit;
    return { errorCode, producerId, producerEpoch };
  }

  /** AddPartitionsToTxn (every partition gets the one error) and AddOffsetsToTxn. */
  async addPartitions(
    transactionalId: string,
    producer: ProducerIdentity,
    partitions: readonly TopicPartitionRef[],
  ): Promise<number> {
    const notServed = this.errorCodeFor(transactionalId);
    if (notServed !== ErrorCode.NONE) return notServed;
    const nowMs = this.nowMs();
    return this.decide(this.states.addPartitions(transactionalId, producer, { partitions, nowMs }));
  }

  /** EndTxn: answered once PrepareCommit or PrepareAbort is durable; the markers follow. */
  async endTransaction(
    transactionalId: string,
    producer: ProducerIdentity,
    committed: boolean,
  ): Promise<number> {
    const notServed = this.errorCodeFor(transactionalId);
    if (notServed !== ErrorCode.NONE) return notServed;
    const nowMs = this.nowMs();
    return this.decide(this.states.endTransaction(transactionalId, producer, { committed, nowMs }));
  }

  /**
   * Whether `partition` is in the ongoing transaction of this producer (the check a partition
   * leader makes before taking a transactional batch, KIP-890).
   */
  isInTransaction(
    transactionalId: string,
    producer: ProducerIdentity,
    partition: TopicPartitionRef,
  ): number {
    const notServed = this.errorCodeFor(transactionalId);
    if (notServed !== ErrorCode.NONE) return notServed;
    const metadata = this.states.get(transactionalId);
    if (metadata === undefined || metadata.producerId !== producer.producerId) {
      return ErrorCode.INVALID_PRODUCER_ID_MAPPING;
    }
    if (metadata.producerEpoch !== producer.producerEpoch) return ErrorCode.PRODUCER_FENCED;
    if (metadata.state === "PrepareCommit" || metadata.state === "PrepareAbort") {
      return ErrorCode.CONCURRENT_TRANSACTIONS;
    }
    const isIn =
      metadata.state === "Ongoing" &&
      metadata.partitions.some(
        (held) => held.topic === partition.topic && held.partition === partition.partition,
      );
    return isIn ? ErrorCode.NONE : ErrorCode.INVALID_TXN_STATE;
  }

  /** DescribeTransactions for one id (Kafka's handleDescribeTransactions). */
  describe(transactionalId: string): TransactionDescription {
    if (transactionalId === "") return describeRefusal(transactionalId, ErrorCode.INVALID_REQUEST);
    const notServed = this.errorCodeFor(transactionalId);
    if (notServed !== ErrorCode.NONE) return describeRefusal(transactionalId, notServed);
    const metadata = this.states.get(transactionalId);
    const markers = this.unmarked.get(transactionalId);
    const unmarked = markers?.prepared === metadata ? markers?.remaining : undefined;
    return describeTransaction(transactionalId, metadata, unmarked);
  }

  /** ListTransactions: COORDINATOR_LOAD_IN_PROGRESS while any partition is loading. */
  list(filters: TransactionFilters): TransactionList & { readonly errorCode: number } {
    const isLoading = [...this.partitions.values()].some(({ status }) => status === "loading");
    if (isLoading) {
      const errorCode = ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
      return { errorCode, unknownStateFilters: [], transactionStates: [] };
    }
    return {
      errorCode: ErrorCode.NONE,
      ...listTransactions(this.states.all(), filters, this.nowMs()),
    };
  }

  /** Stops timers and listeners and waits for the writes and markers in flight. */
  async close(): Promise<void> {
    this.isClosed = true;
    this.stopListening();
    for (const timer of this.periodicTimers) timer.cancel();
    this.partitions.clear();
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /** Wall-clock time: the timestamps are written to the log, as Kafka's. */
  private nowMs(): number {
    return this.options.clock.nowMs();
  }

  private async decide(decision: TransactionDecision): Promise<number> {
    if (decision.kind === "error") return decision.errorCode;
    if (decision.kind === "done") return ErrorCode.NONE;
    return this.write(decision);
  }

  /** Writes a decided transit; NONE once it is durable and current. */
  private async write(decision: { transit: TransactionMetadata; isFence: boolean }) {
    const { transit, isFence } = decision;
    const index = this.partitionFor(transit.transactionalId);
    const loaded = this.partitions.get(index);
    const lookup = this.options.replicaManager.getPartitionOrError({
      topic: TRANSACTION_STATE_TOPIC,
      partition: index,
    });
    if (loaded?.status !== "active" || lookup.kind === "error") return ErrorCode.NOT_COORDINATOR;
    this.states.beginWrite(transit);
    const errorCode = await writeTransactionRecord(this.options.replicaManager, lookup.partition, {
      metadata: transit,
      nowMs: this.nowMs(),
      timers: this.options.timers,
    });
    const isDurable = errorCode === ErrorCode.NONE;
    if (!this.states.completeWrite(transit, { isDurable, isFence })) {
      return ErrorCode.NOT_COORDINATOR;
    }
    if (isDurable && (transit.state === "PrepareCommit" || transit.state === "PrepareAbort")) {
      this.track(this.completeTransaction(transit, loaded.coordinatorEpoch));
    }
    return errorCode;
  }

  /** Sends the markers of a prepared transaction until each is written, then completes it. */
  private async completeTransaction(prepared: TransactionMetadata, coordinatorEpoch: number) {
    const { transactionalId } = prepared;
    try {
      await this.markAndComplete(prepared, coordinatorEpoch);
    } finally {
      if (this.unmarked.get(transactionalId)?.prepared === prepared) {
        this.unmarked.delete(transactionalId);
      }
    }
  }

  private async markAndComplete(prepared: TransactionMetadata, coordinatorEpoch: number) {
    const isCurrent = (): boolean =>
      !this.isClosed && this.states.get(prepared.transactionalId) === prepared;
    let remaining = prepared.partitions;
    const { transactionalId } = prepared;
    while (remaining.length > 0 && isCurrent()) {
      this.unmarked.set(transactionalId, { prepared, remaining });
      const round = await this.options.markers.send({
        producerId: prepared.producerId,
        producerEpoch: prepared.producerEpoch,
        coordinatorEpoch,
        committed: prepared.state === "PrepareCommit",
        partitions: remaining,
      });
      if (round.kind === "abandoned") return;
      remaining = round.partitions;
      if (remaining.length > 0) await this.backoff();
    }
    this.unmarked.set(transactionalId, { prepared, remaining });
    while (isCurrent()) {
      const decision = this.states.complete(prepared.transactionalId, this.nowMs());
      if (decision.kind !== "write") return;
      const errorCode = await this.write(decision);
      if (errorCode === ErrorCode.NONE || errorCode === ErrorCode.NOT_COORDINATOR) return;
      this.options.logger.warn("writing a completed transaction failed; retrying", {
        transactionalId: prepared.transactionalId,
        errorCode,
      });
      await this.backoff();
    }
  }

  private backoff(): Promise<void> {
    return new Promise((resolve) => this.options.timers.schedule(MARKER_RETRY_BACKOFF_MS, resolve));
  }

  private track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => {
        this.options.logger.error("a transaction task failed", { error: String(error) });
      })
      .finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  /**
   * Every `intervalMs`, the writes `decide` makes for the transactional ids `pick` names (those
   * this node serves now), each logged as `what`.
   */
  private schedulePeriodicWrites(task: {
    readonly intervalMs: number;
    readonly what: string;
    readonly pick: (nowMs: number) => string[];
    readonly decide: (transactionalId: string, nowMs: number) => TransactionDecision;
  }): void {
    const timer = this.options.timers.schedule(task.intervalMs, () => {
      this.periodicTimers.delete(timer);
      if (this.isClosed) return;
      for (const transactionalId of task.pick(this.nowMs())) {
        if (this.errorCodeFor(transactionalId) !== ErrorCode.NONE) continue;
        const decision = task.decide(transactionalId, this.nowMs());
        if (decision.kind !== "write") continue;
        this.options.logger.info(task.what, { transactionalId });
        this.track(this.write(decision).then(() => undefined));
      }
      this.schedulePeriodicWrites(task);
    });
    this.periodicTimers.add(timer);
  }

  private onRoleChanged(topicPartition: TopicPartition): void {
    if (topicPartition.topic !== TRANSACTION_STATE_TOPIC || this.isClosed) return;
    const index = topicPartition.partition;
    const lookup = this.options.replicaManager.getPartitionOrError(topicPartition);
    const leader = lookup.kind === "online" && lookup.partition.isLeader ? lookup.partition : null;
    const current = this.partitions.get(index);
    if (leader !== null && current?.coordinatorEpoch !== leader.leaderEpoch) {
      this.states.unload(index);
      this.startLoad(index, leader);
    } else if (leader === null && current !== undefined) {
      this.partitions.delete(index);
      this.states.unload(index);
    }
  }

  private startLoad(index: number, partition: Partition): void {
    const loadEpoch = ++this.loadEpoch;
    const coordinatorEpoch = partition.leaderEpoch;
    this.partitions.set(index, { status: "loading", loadEpoch, coordinatorEpoch });
    const isCurrent = (): boolean => this.partitions.get(index)?.loadEpoch === loadEpoch;
    const load = async (): Promise<void> => {
      const records = await loadTransactionPartition(partition, this.states, { index, isCurrent });
      if (!isCurrent()) return;
      this.partitions.set(index, { status: "active", loadEpoch, coordinatorEpoch });
      const fields = { partition: index, records };
      this.options.logger[records > 0 ? "info" : "debug"]("loaded transaction state", fields);
      for (const prepared of this.states.preparedIn(index)) {
        this.track(this.completeTransaction(prepared, coordinatorEpoch));
      }
    };
    this.track(load());
  }
}
