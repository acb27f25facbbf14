import type { BatchResult } from "./batch-error.js";
import type { RecordBatchHeader } from "./batch-header.js";
import { decompressRecords } from "./compression.js";
import { openBatch } from "./record-stream.js";
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
 * Checks `bytes` as exactly one batch v2 (`openBatch`) and parses all its records at once, the
 * whole records section decompressed within `maxDecompressedBytes`. Refusals are values;
 * nothing here throws on bad bytes.
 */
export function parseBatch(bytes: Uint8Array, limits: BatchReadLimits): BatchResult<ParsedBatch> {
  const opened = openBatch(bytes);
  if (!opened.ok) return opened;
  const { header, compression, payload } = opened;
  const inflated = decompressRecords(compression, payload, limits.maxDecompressedBytes);
  if (!inflated.ok) return inflated;
  const parsed = parseRecords(inflated.bytes, header);
  if (!parsed.ok) return parsed;
  return { ok: true, header, records: parsed.records, recordsBytes: inflated.bytes.length };
}
