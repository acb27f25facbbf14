/**
 * The reads of `sluice consume`: a partition's earliest or latest offset (ListOffsets) and one
 * Fetch from a leader, decoded into the records at or past each partition's position. Control
 * batches (transaction markers) are stepped over, as a consumer does.
 */
import { ErrorCode, type BrokerId } from "../common/index.js";
import {
  decodeRecords,
  fetch,
  iterateBatches,
  listOffsets,
  type DecodedRecord,
  type TimestampType,
} from "../protocol/index.js";
import { kafkaFailure, type ClusterSession } from "./cluster-session.js";

/** ListOffsets' timestamps asking for the log start and the log end. */
export const EARLIEST = -2;
export const LATEST = -1;

/** Bounds of one Fetch, as the Java consumer's fetch.max.bytes and max.partition.fetch.bytes. */
const FETCH_MAX_BYTES = 52_428_800;
const PARTITION_FETCH_MAX_BYTES = 1_048_576;
/** The largest batch a fetched range may hold, as the broker's message.max.bytes can allow. */
const BATCH_BYTES_MAX = 104_857_600;

/** The offset of `timestamp` (EARLIEST or LATEST) in each of `partitions` of one leader. */
export async function listPartitionOffsets(
  session: ClusterSession,
  leader: BrokerId,
  topic: string,
  partitions: readonly number[],
  timestamp: number,
): Promise<Map<number, number>> {
  const body = {
    replicaId: -1,
    isolationLevel: 0,
    topics: [
      {
        name: topic,
        partitions: partitions.map((partitionIndex) => ({
          partitionIndex,
          currentLeaderEpoch: -1,
          timestamp,
        })),
      },
    ],
  };
  const response = await session.send(listOffsets, body, { maxVersion: 7, target: leader });
  const offsets = new Map<number, number>();
  for (const entry of response.topics[0]?.partitions ?? []) {
    if (entry.errorCode !== ErrorCode.NONE) throw kafkaFailure(entry.errorCode);
    offsets.set(entry.partitionIndex, entry.offset);
  }
  return offsets;
}

/** A record as consumed: its partition and the record itself. */
export interface ConsumedRecord {
  readonly partition: number;
  readonly record: DecodedRecord;
  readonly timestampType: TimestampType;
}

/**
 * One Fetch of `positions` (partition to next offset) from `leader`, waiting up to `maxWaitMs`
 * for data. Returns the records in partition order and advances `positions` past every batch
 * read, control batches included.
 */
export async function fetchOnce(
  session: ClusterSession,
  leader: BrokerId,
  topic: string,
  positions: Map<number, number>,
  maxWaitMs: number,
): Promise<ConsumedRecord[]> {
  const partitions = [...positions].map(([partition, fetchOffset]) => ({
    partition,
    currentLeaderEpoch: -1,
    fetchOffset,
    lastFetchedEpoch: -1,
    logStartOffset: -1,
    partitionMaxBytes: PARTITION_FETCH_MAX_BYTES,
  }));
  const body = {
    replicaId: -1,
    maxWaitMs,
    minBytes: 1,
    maxBytes: FETCH_MAX_BYTES,
    isolationLevel: 0,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [{ topic, partitions }],
    forgottenTopicsData: [],
    rackId: "",
  };
  // v12 is the last to name topics; v13 on name them by id only.
  const response = await session.send(fetch, body, { maxVersion: 12, target: leader });
  if (response.errorCode !== ErrorCode.NONE) throw kafkaFailure(response.errorCode);
  const consumed: ConsumedRecord[] = [];
  for (const topicResponse of response.responses) {
    for (const data of topicResponse.partitions) {
      if (data.errorCode !== ErrorCode.NONE) throw kafkaFailure(data.errorCode);
      const position = positions.get(data.partitionIndex);
      if (position === undefined || data.records === null) continue;
      const next = readRecords(data.records, position, (record, timestampType) =>
        consumed.push({ partition: data.partitionIndex, record, timestampType }),
      );
      positions.set(data.partitionIndex, next);
    }
  }
  return consumed;
}

/** Hands each record at or past `position` to `take`; returns the offset after the last batch. */
function readRecords(
  bytes: Uint8Array,
  position: number,
  take: (record: DecodedRecord, timestampType: TimestampType) => void,
): number {
  let next = position;
  for (const entry of iterateBatches(bytes, { maxBatchBytes: BATCH_BYTES_MAX })) {
    // A fetch ends where the broker cut it: a partial batch is read by the next fetch.
    if (entry.kind === "partial") break;
    if (entry.kind !== "batch") throw kafkaFailure(ErrorCode.CORRUPT_MESSAGE);
    const header = entry.header;
    const batchEnd = header.baseOffset + header.lastOffsetDelta + 1;
    if (!header.isControl) {
      const decoded = decodeRecords(entry.bytes, { maxDecompressedBytes: BATCH_BYTES_MAX });
      if (!decoded.ok) throw kafkaFailure(ErrorCode.CORRUPT_MESSAGE);
      for (const record of decoded.records)
        if (record.offset >= next) take(record, header.timestampType);
    }
    next = Math.max(next, batchEnd);
  }
  return next;
}
