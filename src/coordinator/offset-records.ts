/**
 * The records of `__consumer_offsets` this coordinator writes and reads back: OffsetCommitKey
 * and OffsetCommitValue (a null value is a tombstone), and GroupMetadata, a classic group's
 * record (classic-group-records.ts); consumer group records (KIP-848) are in
 * consumer-group-records.ts.
 */
import {
  decodeCoordinatorKey,
  decodeCoordinatorValue,
  encodeBatch,
  encodeCoordinatorKey,
  encodeCoordinatorValue,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  type CoordinatorKey,
  type DecodedRecord,
  type NewRecord,
} from "../protocol/index.js";
import type { CommittedOffset, OffsetKey } from "./offset-store.js";
import { isConsumerGroupKey } from "./consumer-group-records.js";
import { decodeGroupMetadataValue, type PersistedClassicGroup } from "./classic-group-records.js";

/** An offset to write, or its tombstone (value null). */
export interface OffsetRecord {
  readonly key: OffsetKey;
  readonly value: CommittedOffset | null;
}

export type ReplayedRecord =
  | { readonly kind: "offset"; readonly key: OffsetKey; readonly value: CommittedOffset | null }
  | {
      readonly kind: "groupMetadata";
      readonly groupId: string;
      readonly value: PersistedClassicGroup | null;
    }
  | { readonly kind: "consumerGroup"; readonly key: CoordinatorKey };

/** The OffsetCommitKey version Kafka writes. */
const OFFSET_KEY_VERSION = 1;

/** Kafka writes value v1 when a commit carries an expire time (OffsetCommit v1), else v3. */
function valueVersionOf(value: CommittedOffset): number {
  return value.expireTimestampMs >= 0 ? 1 : 3;
}

/** The producer of a transactional offset commit (TxnOffsetCommit). */
export interface OffsetsProducer {
  readonly producerId: number;
  readonly producerEpoch: number;
}

/**
 * One batch (uncompressed, base offset 0: the leader assigns offsets) of offset records; a
 * transactional one when written for `producer`, as Kafka writes TxnOffsetCommit.
 */
export function encodeOffsetRecords(
  records: readonly OffsetRecord[],
  nowMs: number,
  producer?: OffsetsProducer,
): Uint8Array {
  return encodeCoordinatorBatch(
    records.map(({ key, value }) => ({
      timestamp: nowMs,
      key: encodeCoordinatorKey(
        "OffsetCommit",
        { group: key.groupId, topic: key.topic, partition: key.partition },
        OFFSET_KEY_VERSION,
      ),
      value:
        value === null
          ? null
          : encodeCoordinatorValue("OffsetCommit", valueVersionOf(value), {
              offset: value.offset,
              leaderEpoch: value.leaderEpoch,
              metadata: value.metadata,
              commitTimestamp: value.commitTimestampMs,
              expireTimestamp: value.expireTimestampMs,
            }),
    })),
    producer,
  );
}

/**
 * One batch of a coordinator's records: uncompressed, base offset 0 (the leader assigns
 * offsets), without sequence; transactional when written for `producer`.
 */
export function encodeCoordinatorBatch(
  records: readonly NewRecord[],
  producer?: OffsetsProducer,
): Uint8Array {
  return encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    compression: "none",
    timestampType: "createTime",
    isTransactional: producer !== undefined,
    isControl: false,
    producerId: producer?.producerId ?? NO_PRODUCER_ID,
    producerEpoch: producer?.producerEpoch ?? -1,
    baseSequence: NO_SEQUENCE,
    records: [...records],
  });
}

/**
 * What one record of the log says; undefined for records of other coordinators (share
 * groups) that this coordinator skips. Throws DecodeError on malformed bytes.
 */
export function replayOffsetsRecord(record: DecodedRecord): ReplayedRecord | undefined {
  if (record.key === null) return undefined;
  const key = decodeCoordinatorKey("__consumer_offsets", record.key);
  if (key.name === "GroupMetadata") {
    const groupId = key.data["group"] as string;
    const value = record.value === null ? null : decodeGroupMetadataValue(record.value);
    return { kind: "groupMetadata", groupId, value };
  }
  if (isConsumerGroupKey(key)) return { kind: "consumerGroup", key };
  if (key.name !== "OffsetCommit") return undefined;
  const offsetKey: OffsetKey = {
    groupId: key.data["group"] as string,
    topic: key.data["topic"] as string,
    partition: key.data["partition"] as number,
  };
  if (record.value === null) return { kind: "offset", key: offsetKey, value: null };
  const { data } = decodeCoordinatorValue("OffsetCommit", record.value);
  const value: CommittedOffset = {
    offset: data["offset"] as number,
    leaderEpoch: data["leaderEpoch"] as number,
    metadata: data["metadata"] as string,
    commitTimestampMs: data["commitTimestamp"] as number,
    expireTimestampMs: data["expireTimestamp"] as number,
  };
  return { kind: "offset", key: offsetKey, value };
}
