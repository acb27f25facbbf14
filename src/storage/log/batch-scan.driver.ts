/**
 * Walks the batch headers of a segment's log file from a position, reading the file in chunks
 * so that many small batches cost one read, not one read each. Only framing is looked at here
 * (length, magic, safe int64 fields); recovery checks CRCs on whole batches separately.
 */
import { assert } from "../../common/index.js";
import type { FileHandle } from "../../ports/index.js";
import { BatchLayout, readBatchHeader, type BatchError } from "../../protocol/index.js";

/** How much a header scan reads at a time. */
export const SCAN_CHUNK_BYTES = 64 * 1024;

/** The header fields of one batch that the log needs, copied out of the chunk. */
export interface ScannedBatch {
  readonly position: number;
  readonly sizeInBytes: number;
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly maxTimestamp: number;
  readonly partitionLeaderEpoch: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly isControl: boolean;
  readonly isTransactional: boolean;
}

export type ScanEnd =
  | { readonly kind: "end"; readonly position: number }
  /** A batch that does not fit before `endPosition`: torn, or cut by the caller's bound. */
  | { readonly kind: "partial"; readonly position: number }
  | { readonly kind: "corrupt"; readonly position: number; readonly error: BatchError };

/**
 * Reads `length` bytes at `position`; fewer only at the end of the file. The buffer is not
 * zeroed first: only the bytes the read filled are returned.
 */
export async function readAt(
  handle: FileHandle,
  position: number,
  length: number,
): Promise<Uint8Array> {
  const unzeroed = Buffer.allocUnsafe(length);
  const bytes = new Uint8Array(unzeroed.buffer, unzeroed.byteOffset, length);
  const count = await handle.read(bytes, 0, length, position);
  return count === length ? bytes : bytes.subarray(0, count);
}

/**
 * Calls `visit` for each batch between `fromPosition` (a batch start) and `endPosition`, in
 * order, until `visit` returns false or the batches end; resolves to where the walk ended.
 */
export async function scanBatches(
  handle: FileHandle,
  range: { readonly fromPosition: number; readonly endPosition: number },
  visit: (batch: ScannedBatch) => boolean,
): Promise<ScanEnd> {
  let position = range.fromPosition;
  let lastSize = 0;
  const visitAndNote = (batch: ScannedBatch): boolean => {
    lastSize = batch.sizeInBytes;
    return visit(batch);
  };
  while (position < range.endPosition) {
    // After a batch of a chunk or more, the next is likely as large: read its header alone
    // rather than a chunk of bytes that are not headers.
    const chunkBytes = lastSize >= SCAN_CHUNK_BYTES ? BatchLayout.RECORDS : SCAN_CHUNK_BYTES;
    const want = Math.min(chunkBytes, range.endPosition - position);
    const chunk = await readAt(handle, position, want);
    const walked = walkChunk(chunk, position, range.endPosition, visitAndNote);
    if (walked.kind !== "more") return walked.end;
    assert(walked.nextPosition > position, "a header scan always moves forward");
    position = walked.nextPosition;
  }
  return { kind: "end", position };
}

type ChunkWalk =
  | { readonly kind: "more"; readonly nextPosition: number }
  | { readonly kind: "done"; readonly end: ScanEnd };

/** Visits the headers that start in `chunk` (read at `chunkPosition`). */
function walkChunk(
  chunk: Uint8Array,
  chunkPosition: number,
  endPosition: number,
  visit: (batch: ScannedBatch) => boolean,
): ChunkWalk {
  let at = 0;
  while (at < chunk.length) {
    const position = chunkPosition + at;
    const available = chunk.length - at;
    if (available < BatchLayout.RECORDS) {
      // A header cut by the chunk: read again from it, unless the file or range ends here.
      if (chunkPosition + chunk.length < endPosition && at > 0) return more(position);
      return { kind: "done", end: { kind: "partial", position } };
    }
    const read = readBatchHeader(chunk.subarray(at, at + BatchLayout.RECORDS));
    if (!read.ok) return { kind: "done", end: { kind: "corrupt", position, error: read.error } };
    const { header } = read;
    if (position + header.sizeInBytes > endPosition) {
      return { kind: "done", end: { kind: "partial", position } };
    }
    const batch: ScannedBatch = {
      position,
      sizeInBytes: header.sizeInBytes,
      baseOffset: header.baseOffset,
      lastOffset: header.lastOffset,
      maxTimestamp: header.maxTimestamp,
      partitionLeaderEpoch: header.partitionLeaderEpoch,
      producerId: header.producerId,
      producerEpoch: header.producerEpoch,
      baseSequence: header.baseSequence,
      isControl: header.isControl,
      isTransactional: header.isTransactional,
    };
    if (!visit(batch)) return { kind: "done", end: { kind: "end", position } };
    at += header.sizeInBytes;
  }
  return more(chunkPosition + at);
}

function more(nextPosition: number): ChunkWalk {
  return { kind: "more", nextPosition };
}
