/**
 * Produce (0, v3-11): appends each partition's batch on this broker as leader. v3 is the floor
 * because it is the first version of record batches v2 (kafkajs writes old message sets to a
 * broker advertising less), and Kafka 4 serves no lower one either.
 *
 * - acks must be 0, 1 or -1, else every partition gets INVALID_REQUIRED_ACKS;
 * - acks=0 gets no response; if a partition failed the connection is closed once earlier
 *   responses are out, so that the producer notices (Kafka does the same);
 * - acks=-1 waits in the purgatory (DelayedProduce) until the high watermark covers each
 *   append, or `timeoutMs`, when the partitions still waiting get REQUEST_TIMED_OUT;
 * - a producer's first transactional batch on a partition is verified with the transaction
 *   coordinator (produce-verification.ts, KIP-890); the partition's producer state takes it as
 *   the start of its transaction, which that producer's COMMIT or ABORT marker ends (KIP-98).
 *
 * From v10 (KIP-951) a partition refused with NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH
 * names its current leader, and the response gives that leader's endpoint.
 *
 * The appends are started before the handler's first await, so pipelined requests of one
 * connection append in request order.
 */
import { AclOperation, AclResourceType } from "../../metadata/index.js";
import { ErrorCode } from "../../common/index.js";
import {
  ApiKey,
  type MessageInput,
  type ProduceRequest,
  type ProduceResponse,
  type ProduceResponsePartitionProduceResponse,
} from "../../protocol/index.js";
import type { AppendOutcome, ProduceEntry, ReplicaManager } from "../../replication/index.js";
import { DelayedProduce, type PartitionWakeups } from "../delayed/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { topicPartitionKey } from "../purgatory/delayed-operation.js";
import type { DelayedOperationPurgatory } from "../purgatory/purgatory.driver.js";
import {
  NO_RESPONSE,
  closeConnection,
  defineHandler,
  respond,
  type ApiHandler,
  type HandlerContext,
  type HandlerOutcome,
  throttled,
} from "../router/handler.js";
import type { ClientQuotas } from "../quotas/index.js";
import type { BrokerTopicStats } from "./broker-topic-stats.js";
import { LeaderHints } from "./leader-hints.js";
import { entriesOf, requestRefusal } from "./produce-checks.js";
import type { ProduceVerifier, VerifiedProduce } from "./produce-verification.js";

export const PRODUCE_VERSIONS = { minVersion: 3, maxVersion: 11 } as const;

type PartitionResponse = MessageInput<ProduceResponsePartitionProduceResponse>;

export interface ProduceHandlerOptions {
  readonly replicaManager: ReplicaManager;
  readonly purgatory: DelayedOperationPurgatory;
  readonly wakeups: PartitionWakeups;
  /** The image whose leaders and endpoints the KIP-951 hints name. */
  readonly metadataCache: MetadataCache;
  /** The check of transactional batches with their coordinator (KIP-890), when it is on. */
  readonly verifier?: ProduceVerifier;
  /** Kafka's BrokerTopicMetrics, counted for each partition appended or refused. */
  readonly topicStats?: BrokerTopicStats;
  /** The client quotas, whose `producer_byte_rate` counts each request's bytes. */
  readonly quotas?: ClientQuotas;
}

const REFUSAL_MESSAGES: ReadonlyMap<number, string> = new Map([
  [ErrorCode.INVALID_RECORD, "the partition's records are null"],
  [ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed."],
]);
const TRANSACTION_CHECK_FAILED = "the transactional batch failed the transaction check";

/** The first version whose partition errors carry leader hints (KIP-951). */
const LEADER_HINT_VERSION = 10;

export function produceHandler(options: ProduceHandlerOptions): ApiHandler<typeof ApiKey.Produce> {
  return defineHandler(ApiKey.Produce, {
    ...PRODUCE_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, context) => {
      const refusal = requestRefusal(request, context);
      if (refusal !== undefined) {
        const answer = answerAll(request, () =>
          refusedPartition(refusal.errorCode, refusal.message),
        );
        return request.acks === 0 ? closeConnection(refusal.message) : respond(answer);
      }
      // Started synchronously: the order of appends is the order of requests.
      const isWritable = (topic: string) =>
        context.authorization.authorize(AclOperation.WRITE, AclResourceType.TOPIC, topic);
      const { entries: all, malformed } = entriesOf(request, isWritable);
      const verified = options.verifier?.verify(request.transactionalId, all) ?? {
        refused: new Map(),
        entries: all,
      };
      const start = (done: VerifiedProduce): StartedAppends => {
        for (const [key, errorCode] of done.refused) malformed.set(key, errorCode);
        countRefusals(options.topicStats, request, malformed);
        const appending = options.replicaManager.appendRecords(done.entries, {
          requiredAcks: request.acks,
        });
        return { appending, malformed, entries: done.entries };
      };
      // Only a verification that asks another broker waits before its appends start.
      const started = verified instanceof Promise ? verified.then(start) : start(verified);
      return finishProduce(options, { request, context }, started);
    },
    errorResponse: (request, _context, errorCode) =>
      respond(answerAll(request, () => refusedPartition(errorCode, null))),
  });
}

/** A produce's appends once under way, with the partitions refused before them. */
interface StartedAppends {
  readonly appending: ReturnType<ReplicaManager["appendRecords"]>;
  readonly malformed: ReadonlyMap<string, number>;
  readonly entries: readonly ProduceEntry[];
}

async function finishProduce(
  options: ProduceHandlerOptions,
  { request, context }: { readonly request: ProduceRequest; readonly context: HandlerContext },
  started: StartedAppends | Promise<StartedAppends>,
): Promise<HandlerOutcome<ProduceResponse>> {
  const pending = await started;
  const appended = await pending.appending;
  // The records are in the log: the request's bytes no longer count against the memory pool.
  context.requestBytesDone?.();
  if (options.topicStats !== undefined) countAppends(options.topicStats, pending, appended);
  const outcomes = new Map<string, AppendOutcome>();
  for (const { topicPartition, outcome } of appended.results) {
    outcomes.set(topicPartitionKey(topicPartition.topic, topicPartition.partition), outcome);
  }
  let waitErrors: ReadonlyMap<string, number> = new Map();
  if (appended.waits.length > 0) {
    for (const wait of appended.waits) options.wakeups.watch(wait.partition);
    const delayed = new DelayedProduce(Math.max(0, request.timeoutMs), appended.waits);
    options.purgatory.tryCompleteElseWatch(delayed, delayed.keys);
    waitErrors = await (context.remote?.wait(delayed.done) ?? delayed.done);
  }
  const hints =
    context.header.apiVersion >= LEADER_HINT_VERSION
      ? new LeaderHints(options.metadataCache.image, context.connection.listenerName)
      : undefined;
  let hasError = false;
  const response = answerAll(request, (key, topicPartition) => {
    const refusedCode = pending.malformed.get(key);
    if (refusedCode !== undefined) {
      hasError = true;
      const message = REFUSAL_MESSAGES.get(refusedCode) ?? TRANSACTION_CHECK_FAILED;
      return refusedPartition(refusedCode, message);
    }
    const outcome = outcomes.get(key);
    const answer =
      outcome === undefined
        ? refusedPartition(ErrorCode.UNKNOWN_SERVER_ERROR, null)
        : partitionResponseOf(outcome, waitErrors.get(key));
    if (answer.errorCode !== ErrorCode.NONE) hasError = true;
    const currentLeader = hints?.currentLeaderOf(topicPartition, answer.errorCode);
    return currentLeader === undefined ? answer : { ...answer, currentLeader };
  });
  // Kafka records the request's size once it is answered, and throttles an acks=0 producer too.
  const answered = {
    bytes: context.requestSizeBytes ?? 0,
    acks: request.acks,
    localMs: context.localMs?.() ?? 0,
  };
  const throttleTimeMs = options.quotas?.recordProduce(context, answered) ?? 0;
  if (request.acks !== 0) {
    // Read after answerAll: by then every partition has named its leader.
    const nodeEndpoints = hints === undefined ? {} : { nodeEndpoints: hints.nodeEndpoints };
    return throttled(respond({ ...response, ...nodeEndpoints, throttleTimeMs }), throttleTimeMs);
  }
  return hasError
    ? closeConnection("an acks=0 produce failed")
    : throttled(NO_RESPONSE, throttleTimeMs);
}

/** Counts each partition's append (Kafka marks its meters at the append, before any wait). */
function countAppends(
  stats: BrokerTopicStats,
  pending: { readonly entries: readonly ProduceEntry[] },
  appended: Awaited<ReturnType<ReplicaManager["appendRecords"]>>,
): void {
  appended.results.forEach(({ topicPartition, outcome }, index) => {
    const bytes = pending.entries[index]?.records.byteLength ?? 0;
    if (outcome.kind === "appended") {
      const records = outcome.lastOffset - outcome.firstOffset + 1;
      stats.produced(topicPartition.topic, { errorCode: ErrorCode.NONE, records, bytes });
    } else
      stats.produced(topicPartition.topic, { errorCode: outcome.errorCode, records: 0, bytes });
  });
}

/** Counts the partitions refused before any append (null records, a failed transaction check). */
function countRefusals(
  stats: BrokerTopicStats | undefined,
  request: ProduceRequest,
  refused: ReadonlyMap<string, number>,
): void {
  if (stats === undefined || refused.size === 0) return;
  for (const topic of request.topicData) {
    for (const { index } of topic.partitionData) {
      const errorCode = refused.get(topicPartitionKey(topic.name, index));
      if (errorCode !== undefined) stats.produced(topic.name, { errorCode, records: 0, bytes: 0 });
    }
  }
}

/** The response naming every partition of the request, answered by `answer`. */
function answerAll(
  request: ProduceRequest,
  answer: (
    key: string,
    topicPartition: { readonly topic: string; readonly partition: number },
  ) => PartitionResponse & { readonly errorCode: number },
): MessageInput<ProduceResponse> {
  return {
    throttleTimeMs: 0,
    responses: request.topicData.map((topic) => ({
      name: topic.name,
      partitionResponses: topic.partitionData.map((partition) => ({
        ...answer(topicPartitionKey(topic.name, partition.index), {
          topic: topic.name,
          partition: partition.index,
        }),
        index: partition.index,
      })),
    })),
  };
}

function refusedPartition(
  errorCode: number,
  errorMessage: string | null,
): PartitionResponse & { readonly errorCode: number } {
  return { errorCode, errorMessage, baseOffset: -1, logAppendTimeMs: -1, logStartOffset: -1 };
}

/** One partition's answer: its append, then for acks=-1 what the wait ended with. */
function partitionResponseOf(
  outcome: AppendOutcome,
  waitErrorCode: number | undefined,
): PartitionResponse & { readonly errorCode: number } {
  if (outcome.kind === "error") {
    return {
      errorCode: outcome.errorCode,
      errorMessage: outcome.errorMessage ?? null,
      baseOffset: -1,
      logAppendTimeMs: -1,
      logStartOffset: outcome.logStartOffset,
      recordErrors: outcome.recordErrors.map((recordError) => ({
        batchIndex: recordError.batchIndex,
        batchIndexErrorMessage: recordError.message,
      })),
    };
  }
  return {
    errorCode: waitErrorCode ?? ErrorCode.NONE,
    errorMessage: null,
    baseOffset: outcome.firstOffset,
    logAppendTimeMs: outcome.logAppendTime,
    logStartOffset: outcome.logStartOffset,
  };
}
