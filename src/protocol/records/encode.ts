import { assert } from "../../common/index.js";
import { ByteWriter } from "../codec/writer.js";
import { encodeAttributes, type CompressionType, type TimestampType } from "./attributes.js";
import { BatchLayout, CURRENT_MAGIC, NO_TIMESTAMP, writeInt64 } from "./batch-header.js";
import { compressRecords } from "./compression.js";
import { crc32c } from "./crc32c.js";
import type { RecordHeader } from "./record.js";
import { writeRecord, type RecordToWrite } from "./record-writer.js";

export interface NewRecord {
  /** The absolute offset; defaults to baseOffset + the record's index. */
  readonly offset?: number;
  readonly timestamp: number;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers?: readonly RecordHeader[];
}

/** Everything a batch header holds that is not derived from the records. */
export interface EncodeBatchOptions {
  readonly baseOffset: number;
  readonly partitionLeaderEpoch: number;
  readonly compression: CompressionType;
  readonly timestampType: TimestampType;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly records: readonly NewRecord[];
  /** Needed for an empty batch, and to keep a range whose tail records were compacted away. */
  readonly lastOffsetDelta?: number;
}

const INT32_MAX = 0x7fffffff;

/** Offset deltas for the records: strictly increasing, from zero up, within an int32. */
function offsetDeltasOf(options: EncodeBatchOptions): number[] {
  const deltas = options.records.map((record, index) =>
    record.offset === undefined ? index : record.offset - options.baseOffset,
  );
  deltas.forEach((delta, index) => {
    assert(Number.isSafeInteger(delta) && delta >= 0 && delta <= INT32_MAX, "offset delta range");
    assert(index === 0 || delta > (deltas[index - 1] as number), "offsets must increase");
  });
  return deltas;
}

/** The uncompressed records section. */
function writeRecords(options: EncodeBatchOptions, offsetDeltas: readonly number[]): Uint8Array {
  const baseTimestamp = options.records[0]?.timestamp ?? NO_TIMESTAMP;
  const writer = new ByteWriter(1024);
  options.records.forEach((record, index) => {
    const toWrite: RecordToWrite = {
      timestampDelta: record.timestamp - baseTimestamp,
      offsetDelta: offsetDeltas[index] as number,
      key: record.key,
      value: record.value,
      headers: record.headers ?? [],
    };
    writeRecord(writer, toWrite);
  });
  return writer.finish();
}

/**
 * Builds a record batch v2 as Kafka's MemoryRecordsBuilder does: baseTimestamp is the first
 * record's timestamp, maxTimestamp the largest, lastOffsetDelta the last record's delta (unless
 * given), the records compressed as one stream, and the CRC-32C computed over attributes to
 * the end. Invalid options (offsets out of order, unsafe numbers) are programmer errors.
 */
export function encodeBatch(options: EncodeBatchOptions): Uint8Array {
  assert(options.baseOffset >= 0 && Number.isSafeInteger(options.baseOffset), "base offset");
  const offsetDeltas = offsetDeltasOf(options);
  const lastDelta = offsetDeltas[offsetDeltas.length - 1];
  const lastOffsetDelta = options.lastOffsetDelta ?? lastDelta;
  assert(lastOffsetDelta !== undefined, "an empty batch needs lastOffsetDelta");
  assert(lastOffsetDelta >= (lastDelta ?? -1) && lastOffsetDelta <= INT32_MAX, "lastOffsetDelta");
  const payload = compressRecords(options.compression, writeRecords(options, offsetDeltas));
  const batch = new Uint8Array(BatchLayout.RECORDS + payload.length);
  const view = new DataView(batch.buffer);
  writeInt64(view, BatchLayout.BASE_OFFSET, options.baseOffset);
  view.setInt32(BatchLayout.BATCH_LENGTH, batch.length - BatchLayout.LOG_OVERHEAD);
  view.setInt32(BatchLayout.PARTITION_LEADER_EPOCH, options.partitionLeaderEpoch);
  view.setInt8(BatchLayout.MAGIC, CURRENT_MAGIC);
  view.setInt16(BatchLayout.ATTRIBUTES, encodeAttributes({ ...options, hasDeleteHorizon: false }));
  view.setInt32(BatchLayout.LAST_OFFSET_DELTA, lastOffsetDelta);
  writeInt64(view, BatchLayout.BASE_TIMESTAMP, options.records[0]?.timestamp ?? NO_TIMESTAMP);
  writeInt64(view, BatchLayout.MAX_TIMESTAMP, maxTimestampOf(options.records));
  writeInt64(view, BatchLayout.PRODUCER_ID, options.producerId);
  view.setInt16(BatchLayout.PRODUCER_EPOCH, options.producerEpoch);
  view.setInt32(BatchLayout.BASE_SEQUENCE, options.baseSequence);
  view.setInt32(BatchLayout.RECORDS_COUNT, options.records.length);
  batch.set(payload, BatchLayout.RECORDS);
  view.setUint32(BatchLayout.CRC, crc32c(batch.subarray(BatchLayout.ATTRIBUTES)));
  return batch;
}

function maxTimestampOf(records: readonly NewRecord[]): number {
  let maxTimestamp = NO_TIMESTAMP;
  for (const record of records) maxTimestamp = Math.max(maxTimestamp, record.timestamp);
  return maxTimestamp;
}
