import { assertNever } from "../../common/index.js";
import { batchFailure as failure, type BatchError } from "./batch-error.js";
import { BatchLayout, readBatchHeader, type RecordBatchHeader } from "./batch-header.js";

/** The smallest legacy (magic 0) message after the log overhead, Kafka's RECORD_OVERHEAD_V0. */
const LEGACY_MIN_MESSAGE_BYTES = 14;

/** One entry of a byte range holding batches back to back. */
export type BatchEntry =
  /** A complete v2 batch; its CRC and records are not checked yet (validateBatch does). */
  | {
      readonly kind: "batch";
      readonly position: number;
      readonly bytes: Uint8Array;
      readonly header: RecordBatchHeader;
    }
  /** A complete magic 0 or 1 message set entry, recognised so that it can be refused. */
  | {
      readonly kind: "legacy";
      readonly position: number;
      readonly bytes: Uint8Array;
      readonly magic: 0 | 1;
    }
  /**
   * The range ends inside a batch. A fetch response may end so (the broker cuts at max bytes),
   * which is not corruption; in a produce request it is. Always the last entry.
   */
  | {
      readonly kind: "partial";
      readonly position: number;
      readonly availableBytes: number;
      readonly neededBytes: number;
    }
  /** Framing no batch can have; iteration stops here. Always the last entry. */
  | { readonly kind: "corrupt"; readonly position: number; readonly error: BatchError };

export interface IterateBatchesOptions {
  /** Refuse a batch whose size (log overhead included) passes this, as Kafka's max message size. */
  readonly maxBatchBytes: number;
}

/**
 * Walks the batches of a byte range (a produce request's records field, a fetch response's, or
 * a segment read), looking only at headers. The walk reads baseOffset and batchLength first,
 * as Kafka's ByteBufferLogInputStream does, so a range that ends in a partial batch is told
 * apart from a corrupt length.
 */
export function* iterateBatches(
  bytes: Uint8Array,
  options: IterateBatchesOptions,
): Generator<BatchEntry, void, undefined> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let position = 0;
  while (position < bytes.length) {
    const availableBytes = bytes.length - position;
    if (availableBytes < BatchLayout.LOG_OVERHEAD) {
      yield { kind: "partial", position, availableBytes, neededBytes: BatchLayout.LOG_OVERHEAD };
      return;
    }
    const batchLength = view.getInt32(position + BatchLayout.BATCH_LENGTH);
    const sizeInBytes = BatchLayout.LOG_OVERHEAD + batchLength;
    if (batchLength < LEGACY_MIN_MESSAGE_BYTES || sizeInBytes > options.maxBatchBytes) {
      yield { kind: "corrupt", position, error: { kind: "batchLengthInvalid", batchLength } };
      return;
    }
    if (availableBytes < sizeInBytes) {
      yield { kind: "partial", position, availableBytes, neededBytes: sizeInBytes };
      return;
    }
    const entry = entryAt(bytes.subarray(position, position + sizeInBytes), position);
    yield entry;
    if (entry.kind === "corrupt") return;
    position += sizeInBytes;
  }
}

function entryAt(bytes: Uint8Array, position: number): BatchEntry {
  const magic = bytes[BatchLayout.MAGIC];
  if (magic === 0 || magic === 1) return { kind: "legacy", position, bytes, magic };
  const read = readBatchHeader(bytes);
  if (!read.ok) return { kind: "corrupt", position, error: read.error };
  return { kind: "batch", position, bytes, header: read.header };
}

/** The batches of a range that must hold only complete v2 batches, or the first refusal. */
export function completeBatches(
  bytes: Uint8Array,
  options: IterateBatchesOptions,
): { ok: true; batches: RecordBatchHeader[] } | { ok: false; error: BatchError } {
  const batches: RecordBatchHeader[] = [];
  for (const entry of iterateBatches(bytes, options)) {
    switch (entry.kind) {
      case "batch":
        batches.push(entry.header);
        break;
      case "legacy":
        return failure({ kind: "legacyMagic", magic: entry.magic });
      case "partial":
        return failure({
          kind: "truncated",
          neededBytes: entry.neededBytes,
          availableBytes: entry.availableBytes,
        });
      case "corrupt":
        return failure(entry.error);
      default:
        return assertNever(entry, "batch entry");
    }
  }
  return { ok: true, batches };
}
