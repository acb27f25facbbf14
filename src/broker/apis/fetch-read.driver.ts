/**
 * The reading part of Fetch (Kafka's ReplicaManager.fetchMessages with its delayed fetch): read
 * every partition once; answer at once when there is an error, `minBytes` are there, the wait is
 * 0 or nothing is asked; otherwise park a DelayedFetch in the purgatory until appends bring the
 * bytes or `maxWaitMs` passes, then read again. Records go out as the replica manager read them:
 * the log's whole batches in the pieces they were read in, never joined.
 */
import { ErrorCode } from "../../common/index.js";
import { ByteChunks } from "../../protocol/index.js";
import {
  isFetchOnlyFromLeader,
  type ClientMetadata,
  type IsolationLevel,
  type ReadOutcome,
  type ReplicaManager,
} from "../../replication/index.js";
import type { TopicPartition } from "../../storage/index.js";
import { DelayedFetch, fetchPositionOf, type PartitionWakeups } from "../delayed/index.js";
import type { FetchPartitionRequest } from "../fetch-session/index.js";
import type { DelayedOperationPurgatory } from "../purgatory/purgatory.driver.js";
import type { RemoteWait } from "../router/handler.js";
import type { BrokerTopicStats } from "./broker-topic-stats.js";

/** One partition to read; `topicPartition` is undefined when its topic id is unknown. */
export interface PartitionToRead {
  readonly request: FetchPartitionRequest;
  /** Undefined for a partition not read: its topic id is unknown, or `refusal` says why. */
  readonly topicPartition: TopicPartition | undefined;
  /** The error of a partition refused before any read (TOPIC_AUTHORIZATION_FAILED). */
  readonly refusal?: number;
}

/** One partition's read, with its records' bytes. */
export interface PartitionRead {
  readonly request: FetchPartitionRequest;
  readonly topicPartition: TopicPartition | undefined;
  readonly outcome: ReadOutcome;
  readonly records: ByteChunks;
}

const NO_RECORDS = new ByteChunks([]);

/** The request-wide parameters of a read. */
export interface ReadParameters {
  readonly replicaId: number;
  /** A follower's broker epoch (Fetch v15+), or -1. */
  readonly brokerEpoch: number;
  readonly maxWaitMs: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly isolation: IsolationLevel;
  /** Where the fetcher is (Fetch v11+, KIP-392); undefined before v11. */
  readonly clientMetadata: ClientMetadata | undefined;
  /** Counts the wait in the purgatory as the request's remote time. */
  readonly remote?: RemoteWait | undefined;
}

/** What a read uses. */
export interface FetchReadPorts {
  readonly replicaManager: ReplicaManager;
  readonly purgatory: DelayedOperationPurgatory;
  readonly wakeups: PartitionWakeups;
  /** Kafka's BrokerTopicMetrics, counted for each partition read. */
  readonly topicStats?: BrokerTopicStats;
}

/**
 * Reads, waiting in the purgatory when too little is there. A follower's answer counts the bytes
 * of its throttled replicas against the leader's replication throttle (KIP-73), as sent.
 */
export async function readPartitions(
  ports: FetchReadPorts,
  partitions: readonly PartitionToRead[],
  parameters: ReadParameters,
): Promise<PartitionRead[]> {
  const reads = await readOrWait(ports, partitions, parameters);
  const isFollower = parameters.replicaId >= 0;
  for (const { topicPartition, outcome, records } of reads) {
    if (topicPartition === undefined) continue;
    const errorCode = outcome.kind === "error" ? outcome.errorCode : ErrorCode.NONE;
    const bytes = records.byteLength;
    ports.topicStats?.fetched(topicPartition.topic, { errorCode, bytes, isFollower });
  }
  if (isFollower) {
    const { leader } = ports.replicaManager.replicationQuotas;
    let throttledBytes = 0;
    for (const { topicPartition, records } of reads) {
      if (topicPartition !== undefined && leader.isThrottled(topicPartition)) {
        throttledBytes += records.byteLength;
      }
    }
    leader.record(throttledBytes);
  }
  return reads;
}

async function readOrWait(
  ports: FetchReadPorts,
  partitions: readonly PartitionToRead[],
  parameters: ReadParameters,
): Promise<PartitionRead[]> {
  const first = await readOnce(ports.replicaManager, partitions, parameters);
  const totalBytes = first.reduce((sum, read) => sum + read.records.byteLength, 0);
  const hasError = first.some((read) => read.outcome.kind === "error");
  // A consumer sent to another replica is told so at once (Kafka's hasPreferredReadReplica).
  const isRedirected = first.some((read) => preferredReadReplicaOf(read.outcome) !== undefined);
  const known = first.filter((read) => read.topicPartition !== undefined);
  if (parameters.maxWaitMs <= 0 || totalBytes >= parameters.minBytes || hasError) return first;
  if (isRedirected) return first;
  if (known.length === 0) return first;
  const delayed = new DelayedFetch({
    delayMs: parameters.maxWaitMs,
    minBytes: parameters.minBytes,
    isFollower: parameters.replicaId >= 0,
    fetchOnlyLeader: isFetchOnlyFromLeader(parameters.replicaId, parameters.clientMetadata),
    lookup: (topicPartition) => ports.replicaManager.getPartitionOrError(topicPartition),
    isThrottled: (partition) =>
      ports.replicaManager.replicationQuotas.shouldLeaderThrottle(partition, parameters.replicaId),
    partitions: known.map((read) => {
      const topicPartition = read.topicPartition as TopicPartition;
      const lookup = ports.replicaManager.getPartitionOrError(topicPartition);
      if (lookup.kind === "online") ports.wakeups.watch(lookup.partition);
      const { fetchOffset, currentLeaderEpoch } = read.request;
      const fetchPosition =
        lookup.kind === "online" ? fetchPositionOf(lookup.partition, fetchOffset) : undefined;
      return { topicPartition, fetchOffset, currentLeaderEpoch, fetchPosition };
    }),
  });
  ports.purgatory.tryCompleteElseWatch(delayed, delayed.keys);
  await (parameters.remote?.wait(delayed.done) ?? delayed.done);
  return readOnce(ports.replicaManager, partitions, parameters);
}

async function readOnce(
  replicaManager: ReplicaManager,
  partitions: readonly PartitionToRead[],
  parameters: ReadParameters,
): Promise<PartitionRead[]> {
  const known = partitions.filter((partition) => partition.topicPartition !== undefined);
  const outcomes = await replicaManager.fetchMessages(
    known.map(({ request, topicPartition }) => ({
      topicPartition: topicPartition as TopicPartition,
      request: {
        fetchOffset: request.fetchOffset,
        maxBytes: request.partitionMaxBytes,
        isolation: parameters.isolation,
        currentLeaderEpoch: request.currentLeaderEpoch,
        replicaId: parameters.replicaId,
        logStartOffset: request.logStartOffset,
        brokerEpoch: parameters.brokerEpoch,
        lastFetchedEpoch: request.lastFetchedEpoch,
      },
    })),
    {
      maxBytes: parameters.maxBytes,
      isHardMaxBytesLimit: false,
      clientMetadata: parameters.clientMetadata,
    },
  );
  const reads: PartitionRead[] = [];
  let next = 0;
  for (const partition of partitions) {
    if (partition.topicPartition === undefined) {
      const outcome = errorOutcome(partition.refusal ?? ErrorCode.UNKNOWN_TOPIC_ID);
      reads.push({ ...partition, outcome, records: NO_RECORDS });
      continue;
    }
    const answer = outcomes[next++];
    if (answer === undefined) throw new RangeError("fetchMessages answers every partition");
    const { outcome } = answer;
    const records = outcome.kind === "records" ? new ByteChunks(outcome.records) : NO_RECORDS;
    reads.push({ ...partition, outcome, records });
  }
  return reads;
}

/** The replica a read sends its consumer to, if any. */
export function preferredReadReplicaOf(outcome: ReadOutcome): number | undefined {
  return outcome.kind === "records" ? outcome.preferredReadReplica : undefined;
}

function errorOutcome(errorCode: number): ReadOutcome {
  return { kind: "error", errorCode, highWatermark: -1, logStartOffset: -1 };
}
