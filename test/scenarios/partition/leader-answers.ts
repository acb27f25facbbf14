/**
 * How a broker answers its followers' requests in the scenarios, by its real read path as its
 * request handlers call it: Fetch through `ReplicaManager.fetchMessages` with the replica id and
 * broker epoch (the fetch handler's reading part, answered at once as if `max.wait.ms` had
 * passed, and without a fetch session: session id 0, so every request is full), OffsetsForLeader
 * Epoch through `Partition.lastOffsetForLeaderEpoch`, ListOffsets as a replica through
 * `Partition.fetchOffsetForTimestamp` (the log end, no isolation). Also how both are printed.
 */
import { ErrorCode, errorName } from "../../../src/common/index.js";
import { iterateBatches } from "../../../src/protocol/index.js";
import {
  partitionKey,
  type FollowerFetchRequest,
  type FollowerFetchResult,
  type ReplicaManager,
} from "../../../src/replication/index.js";
import type {
  EpochQuery,
  EpochQueryResult,
  FetchedPartition,
  OffsetQueryResult,
} from "../../../src/replication/leader-endpoint.driver.js";
import type { TopicPartition } from "../../../src/storage/index.js";
import { concat } from "../../storage/log-harness.js";

/** A request held on a link. */
export type HeldCall =
  | { readonly kind: "fetch"; readonly request: FollowerFetchRequest }
  | { readonly kind: "epochs"; readonly queries: readonly EpochQuery[] }
  | {
      readonly kind: "listOffsets";
      readonly topicPartition: TopicPartition;
      readonly currentLeaderEpoch: number;
      readonly timestamp: -1 | -2;
    };

/** What a fetcher gets back. */
export type Answer =
  FollowerFetchResult | ReadonlyMap<string, EpochQueryResult> | OffsetQueryResult;

export async function answerFetch(
  replicaManager: ReplicaManager,
  request: FollowerFetchRequest,
): Promise<FollowerFetchResult> {
  const asked = [...request.session.sessionPartitions.values()];
  const outcomes = await replicaManager.fetchMessages(
    asked.map((partition) => ({
      topicPartition: { topic: partition.topicName, partition: partition.partition },
      request: {
        fetchOffset: partition.fetchOffset,
        maxBytes: partition.partitionMaxBytes,
        isolation: "read_uncommitted",
        currentLeaderEpoch: partition.currentLeaderEpoch,
        replicaId: request.replicaId,
        logStartOffset: partition.logStartOffset,
        brokerEpoch: request.brokerEpoch,
        lastFetchedEpoch: partition.lastFetchedEpoch,
      },
    })),
    { maxBytes: request.maxBytes, isHardMaxBytesLimit: false, clientMetadata: undefined },
  );
  const partitions = outcomes.map(({ topicPartition, outcome }): FetchedPartition => {
    const isRead = outcome.kind === "records";
    return {
      key: partitionKey(topicPartition),
      topicPartition,
      errorCode: isRead ? ErrorCode.NONE : outcome.errorCode,
      highWatermark: outcome.highWatermark,
      logStartOffset: outcome.logStartOffset,
      divergingEpoch: isRead ? outcome.divergingEpoch : undefined,
      records: isRead ? concat(outcome.records) : new Uint8Array(0),
    };
  });
  return { kind: "response", errorCode: ErrorCode.NONE, sessionId: 0, partitions };
}

export function answerEpochs(
  replicaManager: ReplicaManager,
  queries: readonly EpochQuery[],
): ReadonlyMap<string, EpochQueryResult> {
  const answers = new Map<string, EpochQueryResult>();
  for (const query of queries) {
    const lookup = replicaManager.getPartitionOrError(query.topicPartition);
    const end =
      lookup.kind === "error"
        ? { errorCode: lookup.errorCode, leaderEpoch: -1, endOffset: -1 }
        : lookup.partition.lastOffsetForLeaderEpoch(query.leaderEpoch, {
            currentLeaderEpoch: query.currentLeaderEpoch,
            requireLeader: true,
          });
    answers.set(partitionKey(query.topicPartition), {
      kind: "ok",
      errorCode: end.errorCode,
      end: { epoch: end.leaderEpoch, endOffset: end.endOffset },
    });
  }
  return answers;
}

export async function answerListOffsets(
  replicaManager: ReplicaManager,
  call: Extract<HeldCall, { kind: "listOffsets" }>,
): Promise<OffsetQueryResult> {
  const lookup = replicaManager.getPartitionOrError(call.topicPartition);
  if (lookup.kind === "error") return { kind: "ok", errorCode: lookup.errorCode, offset: -1 };
  const found = await lookup.partition.fetchOffsetForTimestamp(call.timestamp, {
    isolation: undefined,
    currentLeaderEpoch: call.currentLeaderEpoch,
    fetchOnlyFromLeader: true,
  });
  if (found.kind === "error") return { kind: "ok", errorCode: found.errorCode, offset: -1 };
  const offset = found.kind === "found" ? found.offset : -1;
  return { kind: "ok", errorCode: ErrorCode.NONE, offset };
}

export function describeRequest(call: HeldCall): string {
  switch (call.kind) {
    case "fetch": {
      const { request } = call;
      const partitions = [...request.session.sessionPartitions.values()].map(
        (partition) =>
          `offset=${partition.fetchOffset} lastEpoch=${partition.lastFetchedEpoch}` +
          ` epoch=${partition.currentLeaderEpoch}`,
      );
      return `Fetch{${partitions.join("; ")} brokerEpoch=${request.brokerEpoch}}`;
    }
    case "epochs": {
      const queries = call.queries.map(
        (query) => `epoch=${query.leaderEpoch} currentEpoch=${query.currentLeaderEpoch}`,
      );
      return `OffsetsForLeaderEpoch{${queries.join("; ")}}`;
    }
    case "listOffsets": {
      const which = call.timestamp === -1 ? "latest" : "earliest";
      return `ListOffsets{${which} currentEpoch=${call.currentLeaderEpoch}}`;
    }
  }
}

export function describeAnswer(answer: Answer): string {
  if (answer instanceof Map) {
    return [...answer.values()].map(describeEpochAnswer).join("; ");
  }
  const single = answer as FollowerFetchResult | OffsetQueryResult;
  if (single.kind === "failed") return `failed (${single.message})`;
  if (single.kind === "ok") {
    return single.errorCode === ErrorCode.NONE
      ? `offset=${single.offset}`
      : errorName(single.errorCode);
  }
  return single.partitions.map(describeFetched).join("; ");
}

function describeEpochAnswer(answer: EpochQueryResult): string {
  if (answer.kind === "failed") return `failed (${answer.message})`;
  if (answer.errorCode !== ErrorCode.NONE) return errorName(answer.errorCode);
  return `epoch=${answer.end.epoch} end=${answer.end.endOffset}`;
}

function describeFetched(fetched: FetchedPartition): string {
  if (fetched.errorCode !== ErrorCode.NONE) return errorName(fetched.errorCode);
  const parts: string[] = [];
  const range = offsetRange(fetched.records);
  if (range !== undefined) parts.push(`records=${range}`);
  if (fetched.divergingEpoch !== undefined) {
    const { epoch, endOffset } = fetched.divergingEpoch;
    parts.push(`diverging=epoch ${epoch} ends at ${endOffset}`);
  }
  parts.push(`hw=${fetched.highWatermark}`);
  if (fetched.logStartOffset > 0) parts.push(`start=${fetched.logStartOffset}`);
  return parts.join(" ");
}

/** Whether an answer changes something for its fetcher: records, a divergence, an error. */
export function hasEffect(answer: Answer): boolean {
  if (answer instanceof Map) return true;
  const single = answer as FollowerFetchResult | OffsetQueryResult;
  if (single.kind !== "response") return true;
  return single.partitions.some(
    (partition) =>
      partition.errorCode !== ErrorCode.NONE ||
      partition.divergingEpoch !== undefined ||
      partition.records.length > 0,
  );
}

/** `first..last` of the batches in `records`, or undefined when there are none. */
function offsetRange(records: Uint8Array): string | undefined {
  let first: number | undefined;
  let last: number | undefined;
  for (const entry of iterateBatches(records, { maxBatchBytes: 1 << 30 })) {
    if (entry.kind !== "batch") break;
    first ??= entry.header.baseOffset;
    last = entry.header.lastOffset;
  }
  return first === undefined ? undefined : `${first}..${last}`;
}
