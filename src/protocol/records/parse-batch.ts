import { batchFailure, type BatchResult } from "./batch-error.js";
import {
  BatchLayout,
  checkBatchFraming,
  readBatchHeader,
  type RecordBatchHeader,
} from "./batch-header.js";
import { crc32c } from "./crc32c.js";
import { compressionIdOf } from "./attributes.js";
import { decompressRecords } from "./compression.js";
import { parseRecords, type RawRecord } from "./record.js";

export interface BatchReadLimits {
  /** Refuse a batch whose records decompress to more than this (see decompressionLimitFor). */
  readonly maxDecompressedBytes: number;
}

/** A batch whose framing, CRC and records have been checked, with its records parsed. */
export interface ParsedBatch {
  readonly header: RecordBatchHeader;
  readonly records: readonly RawRecord[];
  /** The size of the records section after decompression. */
  readonly recordsBytes: number;
}

/**
 * Checks `bytes` as exactly one batch v2 and parses its records, in Kafka's order: framing
 * (magic, batchLength against the bytes), then the CRC-32C over attributes to the end, then the
 * header fields, the codec and the records. Refusals are values; nothing here throws on bad bytes.
 */
export function parseBatch(bytes: Uint8Array, limits: BatchReadLimits): BatchResult<ParsedBatch> {
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
  const inflated = decompressRecords(compression, payload, limits.maxDecompressedBytes);
  if (!inflated.ok) return inflated;
  const parsed = parseRecords(inflated.bytes, header);
  if (!parsed.ok) return parsed;
  return { ok: true, header, records: parsed.records, recordsBytes: inflated.bytes.length };
}
