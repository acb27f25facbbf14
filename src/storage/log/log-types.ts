/**
 * The values the partition log hands out: append results, read results made of file slices,
 * segment summaries and the report of a recovery.
 */
import type { FileSlice } from "./log-read.driver.js";

/** An offset and where it lies on disk, as Kafka's LogOffsetMetadata. */
export interface LogOffsetMetadata {
  readonly offset: number;
  readonly segmentBaseOffset: number;
  /** The position in the segment's log file of the batch holding `offset`. */
  readonly position: number;
}

/** What an append wrote, as Kafka's LogAppendInfo. */
export interface AppendResult {
  /** The first offset written, or -1 when the input held no batch. */
  readonly firstOffset: number;
  /** The last offset written, or -1 when the input held no batch. */
  readonly lastOffset: number;
  /** The largest batch maxTimestamp of the input (-1 when none has one). */
  readonly maxTimestamp: number;
  /** The last offset of the batch holding maxTimestamp (Kafka's shallow offset of it). */
  readonly offsetOfMaxTimestamp: number;
  /** The time stamped on the batches for a LogAppendTime topic, else -1. */
  readonly logAppendTime: number;
  /** The bytes written. */
  readonly validBytes: number;
  /** How many batches were written. */
  readonly batchCount: number;
}

/** The answer of `read`. */
export type LogReadResult =
  | {
      readonly kind: "records";
      /** Where the read started: the offset asked for and the batch holding it. */
      readonly fetchOffsetMetadata: LogOffsetMetadata;
      /** Whole batches, in offset order; empty when nothing could be returned. */
      readonly slices: readonly FileSlice[];
      readonly sizeInBytes: number;
      /** The offset after the last batch returned (the fetch offset when nothing was). */
      readonly nextOffset: number;
      readonly logStartOffset: number;
      readonly logEndOffset: number;
    }
  /** OFFSET_OUT_OF_RANGE: below the log start offset or above the log end offset. */
  | {
      readonly kind: "offsetOutOfRange";
      readonly logStartOffset: number;
      readonly logEndOffset: number;
    };

/** A summary of one segment, for retention, metrics and DescribeLogDirs. */
export interface SegmentInfo {
  readonly baseOffset: number;
  /** The offset after the segment's last batch (its base offset when empty). */
  readonly nextOffset: number;
  readonly sizeInBytes: number;
  /** The largest batch maxTimestamp, or -1 when no batch has one. */
  readonly maxTimestamp: number;
  /** When the segment was last written (file time when loaded). */
  readonly lastModifiedMs: number;
  /** Kafka's largestTimestamp: maxTimestamp, or lastModifiedMs when there is none. */
  readonly largestTimestamp: number;
  /** The path of the segment's log file. */
  readonly path: string;
}

/** The first record at or after a timestamp, as ListOffsets answers. */
export interface TimestampAndOffset {
  readonly offset: number;
  readonly timestamp: number;
  /** The leader epoch of the batch holding the record, or -1 when unknown. */
  readonly leaderEpoch: number;
}

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

/** What opening a log did to it; the log manager turns it into metrics. */
export interface RecoveryReport {
  /** Segments whose batches were scanned and whose indexes were rebuilt. */
  readonly recoveredSegments: readonly SegmentRecovery[];
  /** Bytes cut off the log: torn tails plus whole segments after a bad batch. */
  readonly truncatedBytes: number;
  /** Segments deleted because they followed a bad batch. */
  readonly deletedSegmentCount: number;
  /** The log end offset after recovery. */
  readonly logEndOffset: number;
  /** Segments whose indexes failed their sanity check and were rebuilt. */
  readonly rebuiltIndexCount: number;
  /** Leftover .cleaned, .swap, .deleted and orphan files handled. */
  readonly leftoverFileCount: number;
}
