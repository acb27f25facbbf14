/**
 * Fetch (1, v4-17, as Kafka 4 serves: v4 is the first with isolation levels and the floor of
 * @platformatic/kafka; v13+ name topics by id, UNKNOWN_TOPIC_ID for ids this broker does not
 * know). Sessions (v7+, KIP-227) decide which partitions are read and answered; the read waits
 * in the purgatory for `minBytes` up to `maxWaitMs`; `maxBytes` and `partitionMaxBytes` bound
 * the answer, except that the first batch of the first non-empty partition is returned whole
 * (KIP-74). Consumers (replica id -1) read to the high watermark, read_committed ones to the
 * last stable offset (the first offset of the oldest open transaction, if below the high
 * watermark) with the aborted transactions the records overlap, from the `.txnindex` files, for
 * the consumer to drop. From v11 (KIP-392) a consumer may read from a follower up to its
 * high watermark, and a leader with `replica.selector.class` names the replica closest to the
 * consumer's `rackId` as its preferred read replica, without records. From v16 (KIP-951) a
 * partition refused with NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH names its current leader,
 * and the response gives that leader's endpoint. A consumer's `consumer_byte_rate` quota bounds
 * maxBytes to what its window allows and counts the records' bytes; a fetch that takes it past
 * the quota is answered empty with the throttle time (a session's cached partitions unchanged),
 * and the connection is muted for that time, as Kafka does.
 */
import {
  ApiKey,
  type FetchRequest,
  type FetchResponse,
  type FetchResponsePartitionData,
  type MessageInput,
} from "../../protocol/index.js";
import {
  completeFetchContext,
  newFetchContext,
  type FetchAnswerFacts,
  type FetchContext,
  type FetchSessionCache,
} from "../fetch-session/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import {
  defineHandler,
  respond,
  type ApiHandler,
  type HandlerContext,
  type HandlerOutcome,
} from "../router/handler.js";
import type { ClientQuotas } from "../quotas/index.js";
import {
  preferredReadReplicaOf,
  readPartitions,
  type FetchReadPorts,
  type PartitionRead,
} from "./fetch-read.driver.js";
import { forgottenPartitions, partitionsToRead, requestedPartitions } from "./fetch-partitions.js";
import { throttledFetch } from "./fetch-throttle.js";
import { LeaderHints } from "./leader-hints.js";

export const FETCH_VERSIONS = { minVersion: 4, maxVersion: 17 } as const;

/** The first version that carries the client's rack and may fetch from followers (KIP-392). */
const CLIENT_METADATA_VERSION = 11;

/** The first version whose partition errors carry leader hints (KIP-951). */
const LEADER_HINT_VERSION = 16;

export interface FetchHandlerOptions extends FetchReadPorts {
  readonly metadataCache: MetadataCache;
  readonly sessions: FetchSessionCache;
  /**
   * `fetch.max.bytes`: as Kafka, a response holds at most the smaller of this and the request's
   * maxBytes (beyond a first batch that must come whole), and minBytes waits for no more.
   */
  readonly fetchMaxBytes: number;
  /** The client quotas, whose `consumer_byte_rate` counts consumers' fetched bytes. */
  readonly quotas?: ClientQuotas;
}

interface FetchAnswer extends FetchAnswerFacts {
  readonly data: MessageInput<FetchResponsePartitionData>;
}

export function fetchHandler(options: FetchHandlerOptions): ApiHandler<typeof ApiKey.Fetch> {
  return defineHandler(ApiKey.Fetch, {
    ...FETCH_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, context) => handleFetch(options, request, context),
    errorResponse: (request, _context, errorCode) => {
      const responses = request.topics.map((topic) => ({
        topic: topic.topic,
        topicId: topic.topicId,
        partitions: topic.partitions.map((partition) => ({
          partitionIndex: partition.partition,
          errorCode,
          highWatermark: -1,
          lastStableOffset: -1,
          logStartOffset: -1,
          records: new Uint8Array(0),
        })),
      }));
      return respond({ throttleTimeMs: 0, errorCode, sessionId: 0, responses });
    },
  });
}

async function handleFetch(
  options: FetchHandlerOptions,
  request: FetchRequest,
  context: HandlerContext,
): Promise<HandlerOutcome<FetchResponse>> {
  const version = context.header.apiVersion;
  const usesTopicIds = version >= 13;
  const replicaId = version >= 15 ? request.replicaState.replicaId : request.replicaId;
  // KIP-903: a follower's broker epoch, so that a replica back with an empty disk under its old
  // id cannot rejoin the ISR on the strength of fetches made before it lost its data.
  const brokerEpoch = version >= 15 ? request.replicaState.replicaEpoch : -1;
  const sessionContext = fetchContextOf(options.sessions, request, {
    version,
    replicaId,
    nowMs: context.nowMs,
  });
  if (sessionContext.kind === "error") {
    const { errorCode } = sessionContext;
    return respond({ throttleTimeMs: 0, errorCode, sessionId: 0, responses: [] });
  }
  const image = options.metadataCache.image;
  const toRead = partitionsToRead(image, sessionContext.partitions, {
    usesTopicIds,
    replicaId,
    authorization: context.authorization,
  });
  const isolation = request.isolationLevel === 1 ? "read_committed" : "read_uncommitted";
  const quotaBytesMax =
    replicaId < 0 ? (options.quotas?.fetchBytesMax(context) ?? Infinity) : Infinity;
  const maxBytes = Math.min(request.maxBytes, options.fetchMaxBytes, quotaBytesMax);
  const minBytes = Math.min(request.minBytes, maxBytes);
  const clientMetadata = clientMetadataOf(request, context);
  const reads = await readPartitions(options, toRead, {
    replicaId,
    brokerEpoch,
    maxWaitMs: request.maxWaitMs,
    minBytes,
    maxBytes,
    isolation,
    clientMetadata,
    remote: context.remote,
  });
  const throttle =
    replicaId < 0 ? throttledFetch(options.quotas, context, sessionContext, reads) : null;
  if (throttle !== null) return throttle;
  // The hints come from the image the topic ids were resolved in, so that both agree.
  const hints =
    version >= LEADER_HINT_VERSION
      ? new LeaderHints(image, context.connection.listenerName)
      : undefined;
  const answers = reads.map((read) => answerOf(read, isolation === "read_committed", hints));
  const completed = completeFetchContext(options.sessions, sessionContext, answers, context.nowMs);
  return respond({
    throttleTimeMs: 0,
    errorCode: 0,
    sessionId: completed.sessionId,
    responses: groupByTopic(completed.answers),
    ...(hints === undefined ? {} : { nodeEndpoints: hints.nodeEndpoints }),
  });
}

/** The fetch session (KIP-227) a request opens, goes on with or closes; sessionless below v7. */
function fetchContextOf(
  sessions: FetchSessionCache,
  request: FetchRequest,
  at: { readonly version: number; readonly replicaId: number; readonly nowMs: number },
): FetchContext {
  const usesTopicIds = at.version >= 13;
  const partitions = requestedPartitions(request, usesTopicIds);
  if (at.version < 7) return { kind: "sessionless", partitions };
  const fetch = {
    sessionId: request.sessionId,
    sessionEpoch: request.sessionEpoch,
    partitions,
    forgotten: forgottenPartitions(request, usesTopicIds),
    usesTopicIds,
    isPrivileged: at.replicaId >= 0,
  };
  return newFetchContext(sessions, fetch, at.nowMs);
}

/** Kafka's ClientMetadata, which lets a consumer read from any replica (KIP-392). */
function clientMetadataOf(request: FetchRequest, context: HandlerContext) {
  if (context.header.apiVersion < CLIENT_METADATA_VERSION) return undefined;
  return { rackId: request.rackId, listenerName: context.connection.listenerName };
}

function answerOf(
  read: PartitionRead,
  isReadCommitted: boolean,
  hints: LeaderHints | undefined,
): FetchAnswer {
  const { outcome, request } = read;
  const preferredReadReplica = preferredReadReplicaOf(outcome) ?? -1;
  const common = { partitionIndex: request.partition, preferredReadReplica };
  if (outcome.kind === "error") {
    const { errorCode, highWatermark, logStartOffset } = outcome;
    const currentLeader =
      read.topicPartition === undefined
        ? undefined
        : hints?.currentLeaderOf(read.topicPartition, errorCode);
    const data = {
      ...common,
      errorCode,
      highWatermark,
      lastStableOffset: -1,
      logStartOffset,
      ...(currentLeader === undefined ? {} : { currentLeader }),
      // Kafka answers an error with an empty record set, never null: librdkafka refuses a
      // whole response whose records size is -1.
      records: new Uint8Array(0),
    };
    const facts = { errorCode, highWatermark, lastStableOffset: -1, logStartOffset };
    const none = { hasRecords: false, hasDivergingEpoch: false, hasPreferredReadReplica: false };
    return { request, ...facts, ...none, data };
  }
  const { highWatermark, lastStableOffset, logStartOffset, divergingEpoch } = outcome;
  const data = {
    ...common,
    errorCode: 0,
    highWatermark,
    lastStableOffset,
    logStartOffset,
    ...(divergingEpoch === undefined ? {} : { divergingEpoch }),
    abortedTransactions: isReadCommitted ? [...(outcome.abortedTransactions ?? [])] : null,
    records: read.records,
  };
  return {
    request,
    errorCode: 0,
    highWatermark,
    lastStableOffset,
    logStartOffset,
    hasRecords: read.records.byteLength > 0,
    hasDivergingEpoch: divergingEpoch !== undefined,
    hasPreferredReadReplica: preferredReadReplica >= 0,
    data,
  };
}

/** Consecutive answers of one topic go into one topic entry, in answer order. */
function groupByTopic(answers: readonly FetchAnswer[]) {
  const topics: { topic: string; topicId: string; partitions: FetchAnswer["data"][] }[] = [];
  for (const answer of answers) {
    const { topicName, topicId } = answer.request;
    const last = topics[topics.length - 1];
    if (last !== undefined && last.topic === topicName && last.topicId === topicId) {
      last.partitions.push(answer.data);
    } else {
      topics.push({ topic: topicName, topicId, partitions: [answer.data] });
    }
  }
  return topics;
}
