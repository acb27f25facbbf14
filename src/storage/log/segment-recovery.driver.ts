/**
 * The recovery of one segment, as Kafka's LogSegment.recover: read the log file from the start
 * in large chunks, accept each batch whose framing, CRC and offsets are valid, rebuild both
 * indexes from the accepted batches, and cut the file after the last one. Whatever follows the
 * first bad batch is never served: a torn write leaves garbage there, and garbage may look like
 * a batch.
 */
import {
  describeBatchError,
  readBatchHeader,
  type RecordBatchHeader,
} from "../../protocol/index.js";
import { OffsetIndex, isRelativeOffsetInRange } from "../offset-index.js";
import { TimeIndex } from "../time-index.js";
import { readAt } from "./batch-scan.driver.js";
import type { LogSegment } from "./log-segment.driver.js";
import { SegmentIndexing, type RebuiltSegment } from "./segment-indexing.js";

/** What the recovery of one segment found. */
export interface SegmentRecovery {
  readonly baseOffset: number;
  /** Bytes cut off the end of the log file (a torn or corrupt tail). */
  readonly truncatedBytes: number;
  /** The offset after the last valid batch. */
  readonly nextOffset: number;
  /** Why the scan stopped before the end of the file, when it did. */
  readonly reason: string | undefined;
}

/** How much a recovery reads at a time. */
const RECOVERY_CHUNK_BYTES = 1024 * 1024;

/** A leader epoch met in a segment and the first offset it wrote there. */
export interface EpochStart {
  readonly epoch: number;
  readonly startOffset: number;
}

/** What recovering a segment found, with the epochs its batches carry. */
export interface SegmentRecoveryOutcome extends SegmentRecovery {
  readonly epochStarts: readonly EpochStart[];
}

/** The indexes and facts being rebuilt while the batches are read. */
class Rebuild {
  readonly offsetIndex: OffsetIndex;
  readonly timeIndex: TimeIndex;
  readonly indexing: SegmentIndexing;
  readonly epochStarts: EpochStart[] = [];
  validBytes = 0;
  nextOffset: number;
  firstBatchTimestamp = -1;

  constructor(
    readonly baseOffset: number,
    options: { segmentIndexBytes: number; indexIntervalBytes: number },
  ) {
    const indexOptions = { baseOffset, maxIndexSizeBytes: options.segmentIndexBytes };
    this.offsetIndex = new OffsetIndex(indexOptions);
    this.timeIndex = new TimeIndex(indexOptions);
    this.indexing = new SegmentIndexing(options.indexIntervalBytes);
    this.nextOffset = baseOffset;
  }

  /** Why `header` cannot follow the batches accepted so far, or undefined when it can. */
  rejectionOf(header: RecordBatchHeader): string | undefined {
    if (!header.isCrcValid()) return `a CRC mismatch in the batch at offset ${header.baseOffset}`;
    if (header.lastOffsetDelta < 0)
      return `a negative lastOffsetDelta at offset ${header.baseOffset}`;
    if (header.baseOffset < this.nextOffset) {
      return `offset ${header.baseOffset} does not follow ${this.nextOffset - 1}`;
    }
    if (!isRelativeOffsetInRange(this.baseOffset, header.lastOffset)) {
      return `offset ${header.lastOffset} does not fit the segment`;
    }
    return undefined;
  }

  /** Takes an accepted batch: index entries, timestamps, epochs. */
  accept(header: RecordBatchHeader): void {
    const batch = {
      offsetInInput: 0,
      sizeInBytes: header.sizeInBytes,
      baseOffset: header.baseOffset,
      lastOffset: header.lastOffset,
      maxTimestamp: header.maxTimestamp,
    };
    for (const entry of this.indexing.entriesFor([batch], this.validBytes)) {
      if (!this.offsetIndex.isFull()) this.offsetIndex.append(entry.lastOffset, entry.position);
      if (!this.timeIndex.isFull())
        this.timeIndex.maybeAppend(entry.maxTimestamp, entry.offsetOfMaxTimestamp);
    }
    if (this.validBytes === 0) this.firstBatchTimestamp = header.maxTimestamp;
    const epoch = header.partitionLeaderEpoch;
    const latest = this.epochStarts[this.epochStarts.length - 1];
    if (epoch >= 0 && (latest === undefined || epoch > latest.epoch)) {
      this.epochStarts.push({ epoch, startOffset: header.baseOffset });
    }
    this.validBytes += header.sizeInBytes;
    this.nextOffset = header.lastOffset + 1;
  }

  /** The rebuilt indexes and facts; the time index gets the final largest timestamp. */
  finish(): RebuiltSegment {
    const { maxTimestampSoFar, offsetOfMaxTimestampSoFar } = this.indexing;
    if (maxTimestampSoFar >= 0 && offsetOfMaxTimestampSoFar !== undefined) {
      this.timeIndex.maybeAppend(maxTimestampSoFar, offsetOfMaxTimestampSoFar, {
        skipFullCheck: true,
      });
    }
    return {
      offsetIndex: this.offsetIndex,
      timeIndex: this.timeIndex,
      sizeInBytes: this.validBytes,
      nextOffset: this.nextOffset,
      firstBatchTimestamp: this.firstBatchTimestamp,
      maxTimestamp: maxTimestampSoFar,
      offsetOfMaxTimestamp: offsetOfMaxTimestampSoFar,
      bytesSinceLastIndexEntry: this.indexing.bytesSinceLastEntry,
    };
  }
}

/**
 * Walks the batches in `chunk` (read at `rebuild.validBytes`); resolves to why it stopped for
 * good, "more" when the next batch starts beyond the chunk, or a batch size to read whole.
 */
function walkChunk(
  chunk: Uint8Array,
  rebuild: Rebuild,
  fileSize: number,
): string | "more" | number {
  let at = 0;
  while (at < chunk.length) {
    const read = readBatchHeader(chunk.subarray(at));
    if (!read.ok && read.error.kind === "truncated") break;
    if (!read.ok) return `${describeBatchError(read.error)} at byte ${rebuild.validBytes}`;
    const { header } = read;
    if (rebuild.validBytes + header.sizeInBytes > fileSize) {
      return `a batch of ${header.sizeInBytes} bytes at byte ${rebuild.validBytes} passes the end`;
    }
    if (!header.isComplete) return at === 0 ? header.sizeInBytes : "more";
    const rejection = rebuild.rejectionOf(header);
    if (rejection !== undefined) return `${rejection} at byte ${rebuild.validBytes}`;
    rebuild.accept(header);
    at += header.sizeInBytes;
  }
  if (rebuild.validBytes >= fileSize) return "more";
  return at === 0 ? `a torn header at byte ${rebuild.validBytes}` : "more";
}

/**
 * Recovers `segment`: rebuilds its indexes from the valid batches, truncates its log file after
 * them, and reports what was cut.
 */
export async function recoverSegment(
  segment: LogSegment,
  options: { readonly segmentIndexBytes: number; readonly indexIntervalBytes: number },
): Promise<SegmentRecoveryOutcome> {
  const fileSize = await segment.handle.size();
  const rebuild = new Rebuild(segment.baseOffset, options);
  let reason: string | undefined;
  let chunkBytes = RECOVERY_CHUNK_BYTES;
  while (rebuild.validBytes < fileSize && reason === undefined) {
    const length = Math.min(chunkBytes, fileSize - rebuild.validBytes);
    const chunk = await readAt(segment.handle, rebuild.validBytes, length);
    const walked = walkChunk(chunk, rebuild, fileSize);
    // A batch larger than a chunk is read whole on the next turn, then chunks resume.
    chunkBytes = typeof walked === "number" ? walked : RECOVERY_CHUNK_BYTES;
    if (typeof walked === "string" && walked !== "more") reason = walked;
  }
  const truncatedBytes = fileSize - rebuild.validBytes;
  if (truncatedBytes > 0) await segment.handle.truncate(rebuild.validBytes);
  await segment.replaceIndexes(rebuild.finish());
  return {
    baseOffset: segment.baseOffset,
    truncatedBytes,
    nextOffset: rebuild.nextOffset,
    reason,
    epochStarts: rebuild.epochStarts,
  };
}
