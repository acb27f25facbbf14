/**
 * The metadata log on storage: a PartitionLog in `<metadata.log.dir>/__cluster_metadata-0`
 * (Kafka's folder) holding the batches the Raft node builds, with the node's offsets kept
 * (appended as a follower appends, whoever leads). Appends are written at once and made
 * durable by `flush`, whose fsyncs are shared by the appends that wait on them (group commit).
 *
 * States: open, then closed (`close`), which is final.
 */
import { joinPath } from "../../common/index.js";
import type { Clock, FileSystem, Logger } from "../../ports/index.js";
import { defaultLogConfig, PartitionLog, type LogConfig } from "../../storage/index.js";
import type { LoggedControlRecord } from "../control-records.js";
import { METADATA_PARTITION_INDEX, METADATA_TOPIC_NAME } from "../types.js";
import {
  LogShapeBuilder,
  METADATA_BATCH_BYTES_MAX,
  wholeBatches,
  type LoggedBatch,
} from "./log-batches.js";

/** The folder of the metadata log inside `metadata.log.dir`. */
export function metadataLogFolder(metadataLogDir: string): string {
  return joinPath(metadataLogDir, `${METADATA_TOPIC_NAME}-${METADATA_PARTITION_INDEX}`);
}

/** The bytes one scan read asks for when walking the whole log. */
const SCAN_READ_BYTES = 4 * 1024 * 1024;

export interface OpenMetadataLogOptions {
  readonly fs: FileSystem;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The metadata log's folder (see metadataLogFolder). */
  readonly dir: string;
  /** Where the log starts: the end offset of the latest complete snapshot, or 0. */
  readonly logStartOffset: number;
  /** `metadata.log.segment.bytes`: the size at which a segment rolls. */
  readonly segmentBytes: number;
}

/** The log's shape as a Raft node is built from it, without the snapshots. */
export interface ScannedLog {
  readonly logStartOffset: number;
  readonly endOffset: number;
  readonly epochs: readonly { readonly epoch: number; readonly startOffset: number }[];
  readonly controlRecords: readonly LoggedControlRecord[];
}

export class MetadataLog {
  private constructor(private readonly log: PartitionLog) {}

  /**
   * Opens the log, recovering every segment: the metadata log is small, and a crash may have
   * left a torn tail that must be cut before the node counts on its end offset.
   */
  static async open(options: OpenMetadataLogOptions): Promise<MetadataLog> {
    const config: LogConfig = {
      ...defaultLogConfig,
      segmentBytes: options.segmentBytes,
      // The metadata log is never trimmed by time or size: only snapshots move its start.
      retentionMs: -1,
      retentionBytes: -1,
      maxMessageBytes: METADATA_BATCH_BYTES_MAX,
      fileDeleteDelayMs: 0,
    };
    await options.fs.mkdir(options.dir, { recursive: true });
    const log = await PartitionLog.open({
      fs: options.fs,
      clock: options.clock,
      logger: options.logger,
      dir: options.dir,
      topicPartition: { topic: METADATA_TOPIC_NAME, partition: METADATA_PARTITION_INDEX },
      config,
      recoveryPoint: 0,
      logStartOffset: options.logStartOffset,
      hadCleanShutdown: false,
    });
    return new MetadataLog(log);
  }

  get logStartOffset(): number {
    return this.log.logStartOffset;
  }

  /** The offset the next record will have. */
  get endOffset(): number {
    return this.log.logEndOffset;
  }

  /** Everything below it is durable. */
  get flushedOffset(): number {
    return this.log.recoveryPoint;
  }

  /** How many fsync rounds the log ran (group commit makes it fewer than the appends). */
  get flushCount(): number {
    return this.log.flushCount;
  }

  /** Reads the whole log once: its epochs and KRaft control records, for building a node. */
  async scan(): Promise<ScannedLog> {
    const shape = new LogShapeBuilder();
    await this.forEachBatch(this.logStartOffset, this.endOffset, (batch) => shape.add(batch));
    return {
      logStartOffset: this.logStartOffset,
      endOffset: this.endOffset,
      epochs: shape.epochs,
      controlRecords: shape.controlRecords,
    };
  }

  /** Calls `visit` with each whole batch from the one holding `fromOffset` to `toOffset`. */
  async forEachBatch(
    fromOffset: number,
    toOffset: number,
    visit: (batch: LoggedBatch) => void,
  ): Promise<void> {
    let next = fromOffset;
    while (next < toOffset) {
      const bytes = await this.read(next, SCAN_READ_BYTES, toOffset);
      const batches = wholeBatches(bytes);
      if (batches.length === 0) return;
      for (const batch of batches) visit(batch);
      next = (batches.at(-1) as LoggedBatch).lastOffset + 1;
    }
  }

  /**
   * The bytes of whole batches from the one holding `fromOffset`: at least one batch when any
   * exists, then as many as fit `maxBytes`, none holding `maxOffset` or later. Empty when
   * `fromOffset` is outside the log.
   */
  async read(
    fromOffset: number,
    maxBytes: number,
    maxOffset = this.endOffset,
  ): Promise<Uint8Array> {
    const result = await this.log.read({ fromOffset, maxBytes, maxOffset, minOneBatch: true });
    if (result.kind !== "records" || result.slices.length === 0) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    for (const slice of result.slices) parts.push(await this.log.readBytes(slice));
    return concatBytes(parts);
  }

  /** Writes batches whose offsets continue the log; `flush` makes them durable. */
  async append(batches: readonly Uint8Array[]): Promise<void> {
    await this.log.appendAsFollower(concatBytes(batches));
  }

  /** Makes the log durable up to its current end; concurrent calls share fsyncs. */
  async flush(): Promise<void> {
    await this.log.flush();
  }

  /** Removes every batch from the one holding `endOffset` on, durably (a divergence). */
  async truncateTo(endOffset: number): Promise<void> {
    await this.log.truncateTo(endOffset);
  }

  /** Moves the log start to `offset` and deletes the segments wholly below it. */
  async deleteBefore(offset: number): Promise<void> {
    await this.log.maybeIncrementLogStartOffset(offset);
  }

  /** Replaces the whole log by an empty one that starts at `offset` (a snapshot installed). */
  async resetTo(offset: number): Promise<void> {
    await this.log.truncateFullyAndStartAt(offset);
  }

  /** Flushes and closes the files. */
  async close(): Promise<void> {
    await this.log.close();
  }
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
