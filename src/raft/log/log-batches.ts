/**
 * Reading the metadata log's bytes: splitting a run of batches into whole batches, the shape a
 * Raft node is built from (epoch starts and KRaft control records), and the data records that
 * listeners receive (control batches left out).
 */
import { assert } from "../../common/index.js";
import { decodeRecords, iterateBatches, type RecordBatchHeader } from "../../protocol/index.js";
import { controlRecordsOf, type LoggedControlRecord } from "../control-records.js";

/** The largest batch the metadata log holds (Kafka's KRaft MAX_BATCH_SIZE_BYTES, 8 MiB). */
export const METADATA_BATCH_BYTES_MAX = 8 * 1024 * 1024;

/** The most bytes one decoded metadata batch may expand to. */
const DECOMPRESSED_BYTES_MAX = 64 * 1024 * 1024;

/** One whole batch of the metadata log. */
export interface LoggedBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  readonly isControl: boolean;
  readonly bytes: Uint8Array;
}

/**
 * The whole batches of `bytes`, which the log or a snapshot file wrote. A partial batch at the
 * end is left out (a read cut at its byte limit); corrupt framing is a broken invariant, since
 * the log checked every batch before it stored it.
 */
export function wholeBatches(bytes: Uint8Array): LoggedBatch[] {
  const batches: LoggedBatch[] = [];
  for (const entry of iterateBatches(bytes, { maxBatchBytes: METADATA_BATCH_BYTES_MAX })) {
    if (entry.kind === "partial") break;
    assert(entry.kind === "batch", "the metadata log holds only v2 batches");
    batches.push(describeBatch(entry.header, entry.bytes));
  }
  return batches;
}

function describeBatch(header: RecordBatchHeader, bytes: Uint8Array): LoggedBatch {
  return {
    baseOffset: header.baseOffset,
    lastOffset: header.lastOffset,
    epoch: header.partitionLeaderEpoch,
    isControl: header.isControl,
    bytes,
  };
}

/** The epoch cache entries and control records of a log, built batch by batch. */
export class LogShapeBuilder {
  readonly epochs: { epoch: number; startOffset: number }[] = [];
  readonly controlRecords: LoggedControlRecord[] = [];

  /** Takes the next batch of the log, in offset order. */
  add(batch: LoggedBatch): void {
    if (this.epochs.at(-1)?.epoch !== batch.epoch) {
      this.epochs.push({ epoch: batch.epoch, startOffset: batch.baseOffset });
    }
    if (batch.isControl) this.controlRecords.push(...controlRecordsOf(batch.bytes));
  }
}

/** The values of a data batch's records, in offset order (a null value is an empty one). */
export function recordValues(batch: LoggedBatch): Uint8Array[] {
  assert(!batch.isControl, "only data batches carry metadata records");
  const decoded = decodeRecords(batch.bytes, { maxDecompressedBytes: DECOMPRESSED_BYTES_MAX });
  assert(decoded.ok, "a metadata batch from the log decodes");
  return decoded.records.map((record) => record.value ?? new Uint8Array(0));
}
