import { isDecodeError } from "../codec/decode-error.js";
import { ByteReader } from "../codec/reader.js";
import type { CompressionType } from "./attributes.js";
import { batchFailure, type BatchError, type BatchResult } from "./batch-error.js";
import {
  BatchLayout,
  checkBatchFraming,
  readBatchHeader,
  type RecordBatchHeader,
} from "./batch-header.js";
import { compressionIdOf } from "./attributes.js";
import { crc32c } from "./crc32c.js";
import { concatenate, type DecompressError } from "./decompress-result.js";
import { inflateChunks, type RecordsInflater } from "./inflate-chunks.js";
import { MIN_RECORD_BODY_BYTES, readRecordOrDetail, type RawRecord } from "./record.js";

/**
 * The largest single record read from a compressed stream. The whole batch is bounded only by
 * its compressed size, as in Kafka; one record must be held whole, so it has a bound of its own.
 */
export const RECORD_BYTES_MAX = 64 * 1024 * 1024;
/** The most bytes a record's length varint takes. */
const VARINT_BYTES_MAX = 5;
const EMPTY = new Uint8Array(0);

/** A batch whose framing, CRC-32C and header are checked; its records are not read yet. */
export interface OpenedBatch {
  readonly header: RecordBatchHeader;
  readonly compression: CompressionType;
  /** The records section as stored, compressed or not. */
  readonly payload: Uint8Array;
}

/**
 * Checks `bytes` as exactly one batch v2 in Kafka's order: framing (magic, batchLength against
 * the bytes), then the CRC-32C over attributes to the end, then the header fields and codec.
 */
export function openBatch(bytes: Uint8Array): BatchResult<OpenedBatch> {
  const framing = checkBatchFraming(bytes);
  if (!framing.ok) return framing;
  const sizeInBytes = BatchLayout.LOG_OVERHEAD + framing.batchLength;
  if (bytes.length < sizeInBytes) {
    const availableBytes = bytes.length;
    return batchFailure({ kind: "truncated", neededBytes: sizeInBytes, availableBytes });
  }
  if (bytes.length > sizeInBytes) {
    return batchFailure({ kind: "trailingBytes", count: bytes.length - sizeInBytes });
  }
  // The CRC comes before any field it protects is trusted, as in Kafka's ensureValid.
  const storedCrc = new DataView(bytes.buffer, bytes.byteOffset).getUint32(BatchLayout.CRC);
  const computedCrc = crc32c(bytes.subarray(BatchLayout.ATTRIBUTES));
  if (computedCrc !== storedCrc) {
    return batchFailure({ kind: "crcMismatch", storedCrc, computedCrc });
  }
  const read = readBatchHeader(bytes);
  if (!read.ok) return read;
  const { header } = read;
  const compression = header.compression;
  if (compression === undefined) {
    const compressionId = compressionIdOf(header.attributes);
    return batchFailure({ kind: "unknownCompression", compressionId });
  }
  const payload = bytes.subarray(BatchLayout.RECORDS, header.sizeInBytes);
  return { ok: true, header, compression, payload };
}

/** A visit's verdict on one record: undefined to go on, or why the batch is refused. */
export type RecordVisitor = (record: RawRecord, index: number) => BatchError | undefined;

/**
 * Reads the `recordCount` records of an opened batch one at a time, decompressing as it goes,
 * and hands each to `visit`; its byte fields are views valid only during the visit. As Kafka's
 * record iterator: fewer records than the count is recordCountMismatch, a byte after the last is
 * invalidRecord.
 */
export function forEachRecord(
  batch: OpenedBatch,
  visit: RecordVisitor,
): BatchResult<{ readonly recordsBytes: number }> {
  const { recordCount, lastOffsetDelta } = batch.header;
  const countError = (detail: string) =>
    batchFailure({ kind: "recordCountMismatch", recordCount, lastOffsetDelta, detail });
  if (recordCount < 0) return countError("negative records count");
  const pieces = new RecordPieces(inflateChunks(batch.compression, batch.payload));
  for (let index = 0; index < recordCount; index++) {
    const next = nextRecord(pieces, batch.compression);
    if (next.kind === "failed") return batchFailure(next.error);
    if (next.kind === "end") return countError(`the records end after ${index}`);
    if (next.kind === "invalid") {
      return batchFailure({ kind: "invalidRecord", recordIndex: index, detail: next.detail });
    }
    const refusal = visit(next.record, index);
    if (refusal !== undefined) return batchFailure(refusal);
  }
  const after = pieces.fill(1);
  if (after !== undefined) return batchFailure(after);
  if (pieces.available > 0) {
    const detail = "bytes after the last record";
    return batchFailure({ kind: "invalidRecord", recordIndex: recordCount, detail });
  }
  return { ok: true, recordsBytes: pieces.taken };
}

type NextRecord =
  | { readonly kind: "record"; readonly record: RawRecord }
  | { readonly kind: "end" }
  | { readonly kind: "invalid"; readonly detail: string }
  | { readonly kind: "failed"; readonly error: BatchError };

function nextRecord(pieces: RecordPieces, compression: CompressionType): NextRecord {
  const failure = pieces.fill(VARINT_BYTES_MAX);
  if (failure !== undefined) return { kind: "failed", error: failure };
  if (pieces.available === 0) return { kind: "end" };
  const head = pieces.peek();
  let length: number;
  try {
    length = head.varint();
  } catch (cause) {
    if (isDecodeError(cause)) return { kind: "invalid", detail: cause.message };
    throw cause;
  }
  const lengthBytes = head.position;
  if (length < MIN_RECORD_BODY_BYTES) {
    return { kind: "invalid", detail: `record length ${length}` };
  }
  if (length > RECORD_BYTES_MAX) return { kind: "failed", error: tooLarge(compression) };
  const filled = pieces.fill(lengthBytes + length);
  if (filled !== undefined) return { kind: "failed", error: filled };
  if (pieces.available < lengthBytes + length) {
    const left = pieces.available - lengthBytes;
    return { kind: "invalid", detail: `record length ${length} with ${left} bytes left` };
  }
  const record = readRecordOrDetail(new ByteReader(pieces.take(lengthBytes + length)));
  return typeof record === "string"
    ? { kind: "invalid", detail: record }
    : { kind: "record", record };
}

function tooLarge(compression: CompressionType): BatchError {
  return { kind: "decompressedTooLarge", compression, maxDecompressedBytes: RECORD_BYTES_MAX };
}

/** The decompressed records section as a window that fills from the inflater on demand. */
class RecordPieces {
  private buffer: Uint8Array = EMPTY;
  private offset = 0;
  private isEnded = false;
  /** Bytes handed out as records so far. */
  taken = 0;

  constructor(private readonly inflater: RecordsInflater) {}

  get available(): number {
    return this.buffer.length - this.offset;
  }

  /** A reader over the bytes buffered now. */
  peek(): ByteReader {
    return new ByteReader(this.buffer.subarray(this.offset));
  }

  /** Buffers at least `count` bytes unless the records end first. */
  fill(count: number): DecompressError | undefined {
    if (this.available >= count || this.isEnded) return undefined;
    const parts: Uint8Array[] = [this.buffer.subarray(this.offset)];
    let total = this.available;
    while (total < count) {
      const step = this.inflater.next();
      if (step.kind === "failed") return step.error;
      if (step.kind === "end") {
        this.isEnded = true;
        break;
      }
      parts.push(step.bytes);
      total += step.bytes.length;
    }
    this.buffer = concatenate(
      parts.filter((part) => part.length > 0),
      total,
    );
    this.offset = 0;
    return undefined;
  }

  /** The next `count` buffered bytes, which the window then moves past. */
  take(count: number): Uint8Array {
    const bytes = this.buffer.subarray(this.offset, this.offset + count);
    this.offset += count;
    this.taken += count;
    return bytes;
  }
}
