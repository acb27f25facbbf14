/**
 * The reading part of Fetch (Kafka's ReplicaManager.fetchMessages with its delayed fetch): read
 * every partition once; answer at once when there is an error, `minBytes` are there, the wait is
 * 0 or nothing is asked; otherwise park a DelayedFetch in the purgatory until appends bring the
 * bytes or `maxWaitMs` passes, then read again. Records go out as the log's whole batches, read
 * from the file slices the log hands out.
 */
import { ErrorCode } from "../../common/index.js";
import type { IsolationLevel, ReadOutcome, ReplicaManager } from "../../replication/index.js";
import type { TopicPartition } from "../../storage/index.js";
import { DelayedFetch, fetchPositionOf, type PartitionWakeups } from "../delayed/index.js";
import type { FetchPartitionRequest } from "../fetch-session/index.js";
import type { DelayedOperationPurgatory } from "../purgatory/purgatory.driver.js";

/** One partition to read; `topicPartition` is undefined when its topic id is unknown. */
export interface PartitionToRead {
  readonly request: FetchPartitionRequest;
  readonly topicPartition: TopicPartition | undefined;
}

/** One partition's read, with its records' bytes. */
export interface PartitionRead {
  readonly request: FetchPartitionRequest;
  readonly topicPartition: TopicPartition | undefined;
  readonly outcome: ReadOutcome;
  readonly records: Uint8Array;
}

/** The request-wide parameters of a read. */
export interface ReadParameters {
  readonly replicaId: number;
  readonly maxWaitMs: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly isolation: IsolationLevel;
}

/** What a read uses. */
export interface FetchReadPorts {
  readonly replicaManager: ReplicaManager;
  readonly purgatory: DelayedOperationPurgatory;
  readonly wakeups: PartitionWakeups;
}

/** Reads, waiting in the purgatory when too little is there. */
export async function readPartitions(
  ports: FetchReadPorts,
  partitions: readonly PartitionToRead[],
  parameters: ReadParameters,
): Promise<PartitionRead[]> {
  const first = await readOnce(ports.replicaManager, partitions, parameters);
  const totalBytes = first.reduce((sum, read) => sum + read.records.length, 0);
  const hasError = first.some((read) => read.outcome.kind === "error");
  const known = first.filter((read) => read.topicPartition !== undefined);
  if (parameters.maxWaitMs <= 0 || totalBytes >= parameters.minBytes || hasError) return first;
  if (known.length === 0) return first;
  const delayed = new DelayedFetch({
    delayMs: parameters.maxWaitMs,
    minBytes: parameters.minBytes,
    isFollower: parameters.replicaId >= 0,
    lookup: (topicPartition) => ports.replicaManager.getPartitionOrError(topicPartition),
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
  await delayed.done;
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
        brokerEpoch: -1,
        lastFetchedEpoch: request.lastFetchedEpoch,
      },
    })),
    { maxBytes: parameters.maxBytes, isHardMaxBytesLimit: false },
  );
  const reads: PartitionRead[] = [];
  let next = 0;
  for (const partition of partitions) {
    if (partition.topicPartition === undefined) {
      const outcome = errorOutcome(ErrorCode.UNKNOWN_TOPIC_ID);
      reads.push({ ...partition, outcome, records: new Uint8Array(0) });
      continue;
    }
    const answer = outcomes[next++];
    if (answer === undefined) throw new RangeError("fetchMessages answers every partition");
    const read = await recordBytes(replicaManager, partition.topicPartition, answer.outcome);
    reads.push({ ...partition, ...read });
  }
  return reads;
}

/**
 * The bytes of a read's file slices, joined; empty for errors and empty reads. A storage
 * failure while reading them fails this partition alone with KAFKA_STORAGE_ERROR (the
 * partition goes offline with its dir), as Kafka answers a partition whose log dir failed;
 * anything else is a bug and goes on.
 */
async function recordBytes(
  replicaManager: ReplicaManager,
  topicPartition: TopicPartition,
  outcome: ReadOutcome,
): Promise<{ readonly outcome: ReadOutcome; readonly records: Uint8Array }> {
  const nothing = { outcome, records: new Uint8Array(0) };
  if (outcome.kind !== "records" || outcome.sizeInBytes === 0) return nothing;
  const lookup = replicaManager.getPartitionOrError(topicPartition);
  if (lookup.kind === "error") return { ...nothing, outcome: errorOutcome(lookup.errorCode) };
  const parts: Uint8Array[] = [];
  try {
    for (const slice of outcome.slices) parts.push(await lookup.partition.log.readBytes(slice));
  } catch (error) {
    return { ...nothing, outcome: errorOutcome(lookup.partition.errorCodeOf(error)) };
  }
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let position = 0;
  for (const part of parts) {
    joined.set(part, position);
    position += part.length;
  }
  return { outcome, records: joined };
}

function errorOutcome(errorCode: number): ReadOutcome {
  return { kind: "error", errorCode, highWatermark: -1, logStartOffset: -1 };
}
