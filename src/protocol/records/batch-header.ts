import { assert } from "../../common/index.js";
import {
  compressionForId,
  compressionIdOf,
  hasDeleteHorizonAttribute,
  isControlAttribute,
  isTransactionalAttribute,
  timestampTypeOf,
  withTimestampType,
  type CompressionType,
  type TimestampType,
} from "./attributes.js";
import { batchFailure, type BatchResult } from "./batch-error.js";
import { crc32c } from "./crc32c.js";

/** Byte positions of the record batch v2 header fields (Kafka's DefaultRecordBatch layout). */
export const BatchLayout = {
  BASE_OFFSET: 0,
  BATCH_LENGTH: 8,
  PARTITION_LEADER_EPOCH: 12,
  MAGIC: 16,
  CRC: 17,
  ATTRIBUTES: 21,
  LAST_OFFSET_DELTA: 23,
  BASE_TIMESTAMP: 27,
  MAX_TIMESTAMP: 35,
  PRODUCER_ID: 43,
  PRODUCER_EPOCH: 51,
  BASE_SEQUENCE: 53,
  RECORDS_COUNT: 57,
  /** Where the records start, which is also the header size. */
  RECORDS: 61,
  /** baseOffset and batchLength, the part of a batch that batchLength does not count. */
  LOG_OVERHEAD: 12,
} as const;

/** The only magic (format version) this broker reads and writes. */
export const CURRENT_MAGIC = 2;
export const NO_TIMESTAMP = -1;
/** Kafka's "no producer id" value; such a batch is neither idempotent nor transactional. */
export const NO_PRODUCER_ID = -1;
export const NO_SEQUENCE = -1;
/** The smallest batchLength of a v2 batch: the header after the log overhead, no records. */
export const MIN_BATCH_LENGTH = BatchLayout.RECORDS - BatchLayout.LOG_OVERHEAD;

const INT64_FIELDS = [
  ["baseOffset", BatchLayout.BASE_OFFSET],
  ["baseTimestamp", BatchLayout.BASE_TIMESTAMP],
  ["maxTimestamp", BatchLayout.MAX_TIMESTAMP],
  ["producerId", BatchLayout.PRODUCER_ID],
] as const;

function readInt64(view: DataView, at: number): number {
  return view.getInt32(at) * 0x100000000 + view.getUint32(at + 4);
}

function isSafeInt64(view: DataView, at: number): boolean {
  const high = view.getInt32(at);
  // -2^53 shares the high word -0x200000 with safe values but is unsafe itself.
  if (high === -0x200000) return view.getUint32(at + 4) !== 0;
  return high > -0x200000 && high < 0x200000;
}

/** Writes a safe-integer number as a big-endian int64. */
export function writeInt64(view: DataView, at: number, value: number): void {
  assert(Number.isSafeInteger(value), "int64 must be a safe integer");
  const high = Math.floor(value / 0x100000000);
  view.setInt32(at, high);
  view.setUint32(at + 4, value - high * 0x100000000);
}

/**
 * A zero-copy view of a record batch v2 header. It reads fields straight from the bytes and
 * stamps baseOffset and partitionLeaderEpoch in place, which leaves the CRC valid because the
 * CRC covers only attributes to the end. Made by `readBatchHeader`, which has checked the magic,
 * batchLength and that the int64 fields are safe integers.
 */
export class RecordBatchHeader {
  private readonly view: DataView;

  /** `bytes` starts at the batch and holds at least the 61-byte header. */
  constructor(readonly bytes: Uint8Array) {
    assert(bytes.length >= BatchLayout.RECORDS, "a batch header view needs 61 bytes");
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get baseOffset(): number {
    return readInt64(this.view, BatchLayout.BASE_OFFSET);
  }
  get batchLength(): number {
    return this.view.getInt32(BatchLayout.BATCH_LENGTH);
  }
  /** The whole batch's size: batchLength plus the 12 bytes of baseOffset and batchLength. */
  get sizeInBytes(): number {
    return BatchLayout.LOG_OVERHEAD + this.batchLength;
  }
  /** Whether `bytes` holds the whole batch, not only its header. */
  get isComplete(): boolean {
    return this.bytes.length >= this.sizeInBytes;
  }
  get partitionLeaderEpoch(): number {
    return this.view.getInt32(BatchLayout.PARTITION_LEADER_EPOCH);
  }
  get magic(): number {
    return this.view.getInt8(BatchLayout.MAGIC);
  }
  get crc(): number {
    return this.view.getUint32(BatchLayout.CRC);
  }
  get attributes(): number {
    return this.view.getInt16(BatchLayout.ATTRIBUTES);
  }
  /** The codec, or undefined when the attributes hold an id no Kafka version defines. */
  get compression(): CompressionType | undefined {
    return compressionForId(compressionIdOf(this.attributes));
  }
  get timestampType(): TimestampType {
    return timestampTypeOf(this.attributes);
  }
  get isTransactional(): boolean {
    return isTransactionalAttribute(this.attributes);
  }
  get isControl(): boolean {
    return isControlAttribute(this.attributes);
  }
  get hasDeleteHorizon(): boolean {
    return hasDeleteHorizonAttribute(this.attributes);
  }
  /** The delete horizon of KIP-534, kept in baseTimestamp when the flag is set. */
  get deleteHorizonMs(): number {
    return this.hasDeleteHorizon ? this.baseTimestamp : NO_TIMESTAMP;
  }
  get lastOffsetDelta(): number {
    return this.view.getInt32(BatchLayout.LAST_OFFSET_DELTA);
  }
  get lastOffset(): number {
    return this.baseOffset + this.lastOffsetDelta;
  }
  /** The offset after this batch, where the next one starts. */
  get nextOffset(): number {
    return this.lastOffset + 1;
  }
  get baseTimestamp(): number {
    return readInt64(this.view, BatchLayout.BASE_TIMESTAMP);
  }
  get maxTimestamp(): number {
    return readInt64(this.view, BatchLayout.MAX_TIMESTAMP);
  }
  get producerId(): number {
    return readInt64(this.view, BatchLayout.PRODUCER_ID);
  }
  get producerEpoch(): number {
    return this.view.getInt16(BatchLayout.PRODUCER_EPOCH);
  }
  get baseSequence(): number {
    return this.view.getInt32(BatchLayout.BASE_SEQUENCE);
  }
  get recordCount(): number {
    return this.view.getInt32(BatchLayout.RECORDS_COUNT);
  }
  /** The whole batch as a view of the input. */
  get batchBytes(): Uint8Array {
    assert(this.isComplete, "the batch is not complete");
    return this.bytes.subarray(0, this.sizeInBytes);
  }

  /** The CRC-32C of attributes to the end of the batch, as Kafka computes it. */
  computeCrc(): number {
    return crc32c(this.batchBytes.subarray(BatchLayout.ATTRIBUTES));
  }

  isCrcValid(): boolean {
    return this.computeCrc() === this.crc;
  }

  /** Writes baseOffset in place; the CRC stays valid since it does not cover this field. */
  stampBaseOffset(baseOffset: number): void {
    assert(baseOffset >= 0, "a base offset is not negative");
    writeInt64(this.view, BatchLayout.BASE_OFFSET, baseOffset);
  }

  /** Writes partitionLeaderEpoch in place; the CRC does not cover this field either. */
  stampPartitionLeaderEpoch(partitionLeaderEpoch: number): void {
    assert(Number.isInteger(partitionLeaderEpoch), "an epoch is an integer");
    this.view.setInt32(BatchLayout.PARTITION_LEADER_EPOCH, partitionLeaderEpoch);
  }

  /**
   * Writes the timestamp type and maxTimestamp and recomputes the CRC, as Kafka's
   * setMaxTimestamp does for a LogAppendTime topic or a producer's stale maxTimestamp.
   */
  stampMaxTimestamp(timestampType: TimestampType, maxTimestamp: number): void {
    const attributes = withTimestampType(this.attributes, timestampType);
    if (attributes === this.attributes && maxTimestamp === this.maxTimestamp) return;
    this.view.setInt16(BatchLayout.ATTRIBUTES, attributes);
    writeInt64(this.view, BatchLayout.MAX_TIMESTAMP, maxTimestamp);
    this.view.setUint32(BatchLayout.CRC, this.computeCrc());
  }
}

/**
 * Checks the framing of the batch at the start of `bytes`: the magic (legacy 0/1 are recognised
 * by the byte at offset 16, which both formats share), a batchLength between the v2 header size
 * and `maxBatchLength`, and the 61 header bytes. Returns batchLength. The CRC-protected fields
 * are not read, so a caller can check the CRC before trusting them.
 */
export function checkBatchFraming(
  bytes: Uint8Array,
  limits: { readonly maxBatchLength: number } = { maxBatchLength: 0x7fffffff },
): BatchResult<{ readonly batchLength: number }> {
  const truncated = () =>
    batchFailure({
      kind: "truncated",
      neededBytes: BatchLayout.RECORDS,
      availableBytes: bytes.length,
    });
  if (bytes.length < BatchLayout.MAGIC + 1) return truncated();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getInt8(BatchLayout.MAGIC);
  if (magic === 0 || magic === 1) return batchFailure({ kind: "legacyMagic", magic });
  if (magic !== CURRENT_MAGIC) return batchFailure({ kind: "unknownMagic", magic });
  const batchLength = view.getInt32(BatchLayout.BATCH_LENGTH);
  if (batchLength < MIN_BATCH_LENGTH || batchLength > limits.maxBatchLength) {
    return batchFailure({ kind: "batchLengthInvalid", batchLength });
  }
  if (bytes.length < BatchLayout.RECORDS) return truncated();
  return { ok: true, batchLength };
}

/**
 * Reads the header of the batch at the start of `bytes` without touching its records. Needs the
 * 61 header bytes, not the whole batch. Checks the framing (checkBatchFraming) and that the
 * int64 fields are safe integers; it does not check the CRC (RecordBatchHeader.isCrcValid).
 */
export function readBatchHeader(
  bytes: Uint8Array,
  limits: { readonly maxBatchLength: number } = { maxBatchLength: 0x7fffffff },
): BatchResult<{ readonly header: RecordBatchHeader }> {
  const framing = checkBatchFraming(bytes, limits);
  if (!framing.ok) return framing;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const [field, at] of INT64_FIELDS) {
    if (!isSafeInt64(view, at)) return batchFailure({ kind: "int64OutOfRange", field });
  }
  return { ok: true, header: new RecordBatchHeader(bytes) };
}
