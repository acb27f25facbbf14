/**
 * Re-encodes a batch with only the records the cleaner keeps, as Kafka's MemoryRecords.filterTo
 * does: same base offset, last offset (lastOffsetDelta is kept even when the tail records are
 * gone), producer id, epoch and base sequence, partition leader epoch, codec and flags, so
 * offsets, idempotence state and leader epochs survive compaction. When `deleteHorizonMs` is
 * given the batch carries it (KIP-534): the attribute bit is set and baseTimestamp holds the
 * horizon, with record timestamps stored relative to it. Pure.
 */
import { assert } from "../../common/index.js";
import {
  BatchLayout,
  ByteWriter,
  CURRENT_MAGIC,
  NO_TIMESTAMP,
  compressRecords,
  crc32c,
  encodeAttributes,
  type DecodedRecord,
  type RecordBatchHeader,
} from "../../protocol/index.js";

const utf8 = new TextEncoder();

function writeNullableBytes(writer: ByteWriter, bytes: Uint8Array | null): void {
  if (bytes === null) writer.varint(-1);
  else writer.varint(bytes.length).raw(bytes);
}

/** The records section (uncompressed): each record length-prefixed, attributes zero. */
function writeRecords(
  records: readonly DecodedRecord[],
  baseOffset: number,
  baseTimestamp: number,
): Uint8Array {
  const writer = new ByteWriter(1024);
  for (const record of records) {
    const body = new ByteWriter(64);
    body
      .int8(0)
      .varlong(record.timestamp - baseTimestamp)
      .varint(record.offset - baseOffset);
    writeNullableBytes(body, record.key);
    writeNullableBytes(body, record.value);
    body.varint(record.headers.length);
    for (const header of record.headers) {
      writeNullableBytes(body, utf8.encode(header.key));
      writeNullableBytes(body, header.value);
    }
    const bodyBytes = body.finish();
    writer.varint(bodyBytes.length).raw(bodyBytes);
  }
  return writer.finish();
}

/** Writes an int64 that is a safe integer. */
function setInt64(view: DataView, at: number, value: number): void {
  assert(Number.isSafeInteger(value), "an int64 field is a safe integer");
  view.setBigInt64(at, BigInt(value));
}

/** The timestamps of the new header: base (or the delete horizon) and max. */
function timestampsOf(
  original: RecordBatchHeader,
  records: readonly DecodedRecord[],
  deleteHorizonMs: number | undefined,
): { baseTimestamp: number; maxTimestamp: number } {
  let maxTimestamp = NO_TIMESTAMP;
  for (const record of records) maxTimestamp = Math.max(maxTimestamp, record.timestamp);
  // A LogAppendTime batch keeps the broker's append time, as Kafka passes it to the builder.
  if (original.timestampType === "logAppendTime" || records.length === 0) {
    maxTimestamp = original.maxTimestamp;
  }
  const firstTimestamp = records[0]?.timestamp ?? original.maxTimestamp;
  return { baseTimestamp: deleteHorizonMs ?? firstTimestamp, maxTimestamp };
}

/**
 * The batch `original` with only `records` (a subsequence of its records, offsets increasing),
 * carrying `deleteHorizonMs` when given. With no records it is Kafka's empty batch kept for an
 * idempotent producer's state: uncompressed, header only.
 */
export function encodeRetainedBatch(
  original: RecordBatchHeader,
  records: readonly DecodedRecord[],
  deleteHorizonMs: number | undefined,
): Uint8Array {
  const compression = records.length === 0 ? "none" : original.compression;
  assert(compression !== undefined, "a decoded batch has a known codec");
  const { baseTimestamp, maxTimestamp } = timestampsOf(original, records, deleteHorizonMs);
  const plain = writeRecords(records, original.baseOffset, baseTimestamp);
  const payload = records.length === 0 ? plain : compressRecords(compression, plain);
  const batch = new Uint8Array(BatchLayout.RECORDS + payload.length);
  const view = new DataView(batch.buffer);
  setInt64(view, BatchLayout.BASE_OFFSET, original.baseOffset);
  view.setInt32(BatchLayout.BATCH_LENGTH, batch.length - BatchLayout.LOG_OVERHEAD);
  view.setInt32(BatchLayout.PARTITION_LEADER_EPOCH, original.partitionLeaderEpoch);
  view.setInt8(BatchLayout.MAGIC, CURRENT_MAGIC);
  const attributes = encodeAttributes({
    compression,
    timestampType: original.timestampType,
    isTransactional: original.isTransactional,
    isControl: original.isControl,
    hasDeleteHorizon: deleteHorizonMs !== undefined,
  });
  view.setInt16(BatchLayout.ATTRIBUTES, attributes);
  view.setInt32(BatchLayout.LAST_OFFSET_DELTA, original.lastOffsetDelta);
  setInt64(view, BatchLayout.BASE_TIMESTAMP, baseTimestamp);
  setInt64(view, BatchLayout.MAX_TIMESTAMP, maxTimestamp);
  setInt64(view, BatchLayout.PRODUCER_ID, original.producerId);
  view.setInt16(BatchLayout.PRODUCER_EPOCH, original.producerEpoch);
  view.setInt32(BatchLayout.BASE_SEQUENCE, original.baseSequence);
  view.setInt32(BatchLayout.RECORDS_COUNT, records.length);
  batch.set(payload, BatchLayout.RECORDS);
  view.setUint32(BatchLayout.CRC, crc32c(batch.subarray(BatchLayout.ATTRIBUTES)));
  return batch;
}
