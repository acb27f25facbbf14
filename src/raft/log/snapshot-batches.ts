/**
 * The batches of a snapshot file the node itself writes (KIP-630): the node's header batch at
 * offset 0, the state machine's records in batches with offsets counting on, and the footer.
 */
import { assert } from "../../common/index.js";
import {
  encodeBatch,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  RecordBatchHeader,
} from "../../protocol/index.js";
import { snapshotFooterBatch } from "../control-records.js";
import type { SnapshotId } from "../types.js";

/** The most records one snapshot batch holds (Kafka's snapshot writer batches similarly). */
export const SNAPSHOT_RECORDS_PER_BATCH = 1000;

/** Every batch of a snapshot of `records` (metadata record values), in file order. */
export function snapshotBatches(options: {
  readonly snapshotId: SnapshotId;
  /** The first batch, from the node's createSnapshot. */
  readonly headerBatch: Uint8Array;
  readonly records: readonly Uint8Array[];
  readonly timestamp: number;
}): Uint8Array[] {
  const header = new RecordBatchHeader(options.headerBatch);
  assert(header.baseOffset === 0, "a snapshot starts at offset 0");
  const batches = [options.headerBatch];
  let nextOffset = header.lastOffset + 1;
  const epoch = options.snapshotId.epoch;
  for (let start = 0; start < options.records.length; start += SNAPSHOT_RECORDS_PER_BATCH) {
    const slice = options.records.slice(start, start + SNAPSHOT_RECORDS_PER_BATCH);
    batches.push(
      encodeBatch({
        baseOffset: nextOffset,
        partitionLeaderEpoch: epoch,
        compression: "none",
        timestampType: "createTime",
        isTransactional: false,
        isControl: false,
        producerId: NO_PRODUCER_ID,
        producerEpoch: -1,
        baseSequence: NO_SEQUENCE,
        records: slice.map((value) => ({ timestamp: options.timestamp, key: null, value })),
      }),
    );
    nextOffset += slice.length;
  }
  batches.push(
    snapshotFooterBatch({ baseOffset: nextOffset, epoch, timestamp: options.timestamp }),
  );
  return batches;
}
