/**
 * Reads the batches of a segment's log file for the cleaner, `log.cleaner.io.buffer.size` bytes
 * at a time (more when one batch is larger); the caller decodes the batches it needs. A segment
 * the log accepted holds only whole, valid batches; anything else here is corruption, and the
 * cleaner gives up on the log (Kafka marks such a partition uncleanable).
 */
import type { FileSystem } from "../../ports/index.js";
import {
  decodeRecords,
  describeBatchError,
  iterateBatches,
  type DecodedBatch,
  type RecordBatchHeader,
} from "../../protocol/index.js";

/** A batch of a segment could not be read: the log is damaged under the cleaner. */
export class CleanerReadError extends Error {
  override readonly name = "CleanerReadError";
  constructor(
    readonly path: string,
    readonly position: number,
    reason: string,
  ) {
    super(`cannot clean ${path}: batch at position ${position}: ${reason}`);
  }
}

export interface SegmentReadOptions {
  readonly ioBufferBytes: number;
  /** The log's max.message.bytes plus slack: no accepted batch is larger. */
  readonly maxBatchBytes: number;
  readonly maxDecompressedBytes: number;
}

/** One batch of a segment: its position, header and original bytes. */
export interface SegmentBatch {
  readonly position: number;
  readonly bytes: Uint8Array;
  readonly header: RecordBatchHeader;
}

/** Decodes a batch's records (decompressing them), or throws CleanerReadError. */
export function decodeSegmentBatch(
  path: string,
  batch: SegmentBatch,
  options: SegmentReadOptions,
): DecodedBatch {
  const decoded = decodeRecords(batch.bytes, options);
  if (!decoded.ok) {
    throw new CleanerReadError(path, batch.position, describeBatchError(decoded.error));
  }
  return decoded;
}

/** Walks the first `sizeInBytes` bytes of the log file at `path`, batch by batch. */
export async function* readSegmentBatches(
  fileSystem: FileSystem,
  segment: { readonly path: string; readonly sizeInBytes: number },
  options: SegmentReadOptions,
): AsyncGenerator<SegmentBatch, void, undefined> {
  const handle = await fileSystem.open(segment.path, { readOnly: true });
  try {
    let position = 0;
    let chunkBytes = options.ioBufferBytes;
    while (position < segment.sizeInBytes) {
      const length = Math.min(chunkBytes, segment.sizeInBytes - position);
      const chunk = new Uint8Array(length);
      const read = await handle.read(chunk, 0, length, position);
      if (read < length) throw new CleanerReadError(segment.path, position, "the file is shorter");
      const walked = yield* walkChunk(segment.path, chunk, position, options);
      if (walked.consumed === 0) chunkBytes = Math.max(chunkBytes, walked.neededBytes);
      position += walked.consumed;
    }
  } finally {
    await handle.close();
  }
}

/** Yields the whole batches of `chunk`; says how far it got and what the cut batch needs. */
function* walkChunk(
  path: string,
  chunk: Uint8Array,
  chunkPosition: number,
  options: SegmentReadOptions,
): Generator<SegmentBatch, { consumed: number; neededBytes: number }, undefined> {
  for (const entry of iterateBatches(chunk, { maxBatchBytes: options.maxBatchBytes })) {
    const position = chunkPosition + entry.position;
    switch (entry.kind) {
      case "batch":
        if (!entry.header.isCrcValid()) {
          throw new CleanerReadError(path, position, "the batch fails its CRC-32C");
        }
        yield { position, bytes: entry.bytes, header: entry.header };
        break;
      case "partial":
        return { consumed: entry.position, neededBytes: entry.neededBytes };
      case "legacy":
        throw new CleanerReadError(path, position, `magic ${entry.magic} batches are not cleaned`);
      case "corrupt":
        throw new CleanerReadError(path, position, describeBatchError(entry.error));
    }
  }
  return { consumed: chunk.length, neededBytes: 0 };
}
