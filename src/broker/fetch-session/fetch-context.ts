/**
 * What a Fetch request means for the session cache (Kafka's FetchManager.newContext and the
 * FetchContext kinds), and which partitions its response carries:
 * - sessionless: epoch -1 (FINAL); drops the named session; every partition answered, id 0;
 * - full: epoch 0 (INITIAL); drops the named session and, after the read, tries to create one;
 * - incremental: epoch > 0 on a cached session; the request adds, updates and forgets
 *   partitions, every partition of the session is read, and only those with news are answered;
 * - error: FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH, or
 *   FETCH_SESSION_TOPIC_ID_ERROR when a session made with topic ids is used without, or back.
 */
import { ErrorCode } from "../../common/index.js";
import {
  cachedKey,
  type CachedPartition,
  type FetchSession,
  type FetchSessionCache,
} from "./fetch-session-cache.js";

/** The epoch of a full request that creates a session. */
export const INITIAL_EPOCH = 0;
/** The epoch of a request that closes its session (or fetches without one). */
export const FINAL_EPOCH = -1;

/** One partition as a Fetch request (or the session) asks for it. */
export interface FetchPartitionRequest {
  /** The topic id (v13+), or the zero id before. */
  readonly topicId: string;
  /** The topic name (before v13), or "" when the fetcher uses topic ids. */
  readonly topicName: string;
  readonly partition: number;
  readonly fetchOffset: number;
  readonly partitionMaxBytes: number;
  readonly currentLeaderEpoch: number;
  readonly lastFetchedEpoch: number;
  readonly logStartOffset: number;
}

/** A partition a request asks its session to forget. */
export interface ForgottenPartition {
  readonly topicId: string;
  readonly topicName: string;
  readonly partition: number;
}

/** The session part of a Fetch request. */
export interface FetchSessionRequest {
  readonly sessionId: number;
  readonly sessionEpoch: number;
  readonly partitions: readonly FetchPartitionRequest[];
  readonly forgotten: readonly ForgottenPartition[];
  readonly usesTopicIds: boolean;
  /** A follower's fetch (replica id >= 0), which ranks above consumers for a slot. */
  readonly isPrivileged: boolean;
}

/** What a request means; `partitions` are the ones to read, in order. */
export type FetchContext =
  | { readonly kind: "error"; readonly errorCode: number }
  | { readonly kind: "sessionless"; readonly partitions: readonly FetchPartitionRequest[] }
  | {
      readonly kind: "full";
      readonly partitions: readonly FetchPartitionRequest[];
      readonly isPrivileged: boolean;
      readonly usesTopicIds: boolean;
    }
  | {
      readonly kind: "incremental";
      readonly session: FetchSession;
      readonly partitions: readonly FetchPartitionRequest[];
    };

/** The facts of a partition's answer that decide whether an incremental response carries it. */
export interface FetchAnswerFacts {
  readonly request: FetchPartitionRequest;
  readonly errorCode: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly logStartOffset: number;
  readonly hasRecords: boolean;
  readonly hasDivergingEpoch: boolean;
  /** Whether the answer names a preferred read replica (KIP-392), which must reach the client. */
  readonly hasPreferredReadReplica: boolean;
}

/** Interprets the session fields of a request against the cache. */
export function newFetchContext(
  cache: FetchSessionCache,
  request: FetchSessionRequest,
  nowMs: number,
): FetchContext {
  const { sessionId, sessionEpoch, partitions } = request;
  if (sessionEpoch === FINAL_EPOCH || sessionEpoch === INITIAL_EPOCH) {
    if (sessionId !== 0) cache.remove(sessionId);
    if (sessionEpoch === FINAL_EPOCH) return { kind: "sessionless", partitions };
    const { isPrivileged, usesTopicIds } = request;
    return { kind: "full", partitions, isPrivileged, usesTopicIds };
  }
  const session = cache.get(sessionId);
  if (session === undefined) {
    return { kind: "error", errorCode: ErrorCode.FETCH_SESSION_ID_NOT_FOUND };
  }
  if (session.epoch !== sessionEpoch) {
    return { kind: "error", errorCode: ErrorCode.INVALID_FETCH_SESSION_EPOCH };
  }
  if (session.usesTopicIds !== request.usesTopicIds) {
    return { kind: "error", errorCode: ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR };
  }
  for (const partition of request.partitions) {
    const key = cachedKey(partition);
    const cached = session.partitions.get(key);
    if (cached === undefined) session.partitions.set(key, newCachedPartition(partition));
    else updateCachedPartition(cached, partition);
  }
  for (const forgotten of request.forgotten) session.partitions.delete(cachedKey(forgotten));
  session.advanceEpoch();
  session.lastUsedMs = nowMs;
  return { kind: "incremental", session, partitions: [...session.partitions.values()] };
}

/**
 * The session id and the answers a response carries. A full context creates its session here,
 * with the answered values cached; an incremental one keeps only the partitions with news
 * (an error, records, a moved high watermark, last stable or log start offset, a diverging
 * epoch) and moves those to the end of the session, so that later responses rotate fairly.
 */
export function completeFetchContext<Answer extends FetchAnswerFacts>(
  cache: FetchSessionCache,
  context: Exclude<FetchContext, { kind: "error" }>,
  answers: readonly Answer[],
  nowMs: number,
): { readonly sessionId: number; readonly answers: readonly Answer[] } {
  switch (context.kind) {
    case "sessionless":
      return { sessionId: 0, answers };
    case "full": {
      const cached = answers.map((answer) => {
        const partition = newCachedPartition(answer.request);
        recordAnswer(partition, answer);
        return partition;
      });
      const session = cache.maybeCreate(cached, { ...context, nowMs });
      return { sessionId: session?.id ?? 0, answers };
    }
    case "incremental":
      return { sessionId: context.session.id, answers: incrementalAnswers(context, answers) };
  }
}

function incrementalAnswers<Answer extends FetchAnswerFacts>(
  context: Extract<FetchContext, { kind: "incremental" }>,
  answers: readonly Answer[],
): Answer[] {
  const { session } = context;
  const carried: Answer[] = [];
  for (const answer of answers) {
    const key = cachedKey(answer.request);
    const cached = session.partitions.get(key);
    if (cached === undefined) continue;
    const hasNews =
      answer.errorCode !== ErrorCode.NONE ||
      answer.hasRecords ||
      answer.hasDivergingEpoch ||
      answer.hasPreferredReadReplica ||
      answer.highWatermark !== cached.highWatermark ||
      answer.lastStableOffset !== cached.lastStableOffset ||
      answer.logStartOffset !== cached.responseLogStartOffset;
    recordAnswer(cached, answer);
    if (!hasNews) continue;
    carried.push(answer);
    session.partitions.delete(key);
    session.partitions.set(key, cached);
  }
  return carried;
}

function newCachedPartition(request: FetchPartitionRequest): CachedPartition {
  return {
    ...request,
    highWatermark: -1,
    lastStableOffset: -1,
    responseLogStartOffset: -1,
  };
}

function updateCachedPartition(cached: CachedPartition, request: FetchPartitionRequest): void {
  cached.fetchOffset = request.fetchOffset;
  cached.partitionMaxBytes = request.partitionMaxBytes;
  cached.currentLeaderEpoch = request.currentLeaderEpoch;
  cached.lastFetchedEpoch = request.lastFetchedEpoch;
  cached.logStartOffset = request.logStartOffset;
}

function recordAnswer(cached: CachedPartition, answer: FetchAnswerFacts): void {
  cached.highWatermark = answer.highWatermark;
  cached.lastStableOffset = answer.lastStableOffset;
  cached.responseLogStartOffset = answer.logStartOffset;
}
