/**
 * Walks the batches of a segment's log file through the FileSystem port, one batch in memory at
 * a time, and says where and why the walk had to stop: the last bytes of a torn write, a length
 * no batch can have, a legacy or unknown magic byte, or a CRC-32C that does not match.
 */
import type { FileHandle } from "../ports/index.js";
import {
  BatchLayout,
  MIN_BATCH_LENGTH,
  describeBatchError,
  readBatchHeader,
  type RecordBatchHeader,
} from "../protocol/index.js";

/** One step of the walk over a log file. */
export type SegmentEntry =
  /** A complete batch whose framing and CRC-32C are sound. */
  | {
      readonly kind: "batch";
      readonly position: number;
      readonly header: RecordBatchHeader;
      readonly bytes: Uint8Array;
    }
  /** The walk stopped here: what follows cannot be read as batches. Always the last entry. */
  | {
      readonly kind: "stop";
      readonly position: number;
      readonly cause: "torn" | "corrupt";
      readonly reason: string;
      /** The header when the framing was readable but the batch is not (a CRC mismatch). */
      readonly header?: RecordBatchHeader;
    };

/** Limits of a walk; a batch larger than `maxBatchBytes` is reported as corrupt, not read. */
export interface ScanOptions {
  readonly maxBatchBytes: number;
}

/** Reads exactly `length` bytes at `position`, or fewer when the file ends first. */
export async function readAt(
  file: FileHandle,
  position: number,
  length: number,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const count = await file.read(bytes, filled, length - filled, position + filled);
    if (count === 0) break;
    filled += count;
  }
  return filled === length ? bytes : bytes.subarray(0, filled);
}

/** Walks the batches of `file` from `startPosition` to its end, or to the first damage. */
export async function* scanSegment(
  file: FileHandle,
  options: ScanOptions,
  startPosition = 0,
): AsyncGenerator<SegmentEntry, void, undefined> {
  const fileSize = await file.size();
  let position = startPosition;
  while (position < fileSize) {
    const entry = await entryAt(file, position, fileSize, options);
    yield entry;
    if (entry.kind === "stop") return;
    position += entry.header.sizeInBytes;
  }
}

async function entryAt(
  file: FileHandle,
  position: number,
  fileSize: number,
  options: ScanOptions,
): Promise<SegmentEntry> {
  const remaining = fileSize - position;
  const stop = (cause: "torn" | "corrupt", reason: string): SegmentEntry => ({
    kind: "stop",
    position,
    cause,
    reason,
  });
  if (remaining < BatchLayout.LOG_OVERHEAD) {
    return stop("torn", `${remaining} trailing bytes, fewer than the 12 of a batch's log overhead`);
  }
  const overhead = await readAt(file, position, BatchLayout.LOG_OVERHEAD);
  const batchLength = new DataView(overhead.buffer).getInt32(BatchLayout.BATCH_LENGTH);
  const sizeInBytes = BatchLayout.LOG_OVERHEAD + batchLength;
  if (batchLength < MIN_BATCH_LENGTH) {
    return stop("corrupt", `batchLength ${batchLength} is below the smallest v2 batch's 49`);
  }
  if (sizeInBytes > options.maxBatchBytes) {
    return stop("corrupt", `batch size ${sizeInBytes} passes the limit ${options.maxBatchBytes}`);
  }
  if (sizeInBytes > remaining) {
    return stop("torn", `the batch needs ${sizeInBytes} bytes but only ${remaining} remain`);
  }
  const bytes = await readAt(file, position, sizeInBytes);
  const read = readBatchHeader(bytes);
  if (!read.ok) return stop("corrupt", describeBatchError(read.error));
  const { header } = read;
  if (!header.isCrcValid()) {
    const reason = `crc mismatch: stored ${header.crc}, computed ${header.computeCrc()}`;
    return { kind: "stop", position, cause: "corrupt", reason, header };
  }
  return { kind: "batch", position, header, bytes };
}
