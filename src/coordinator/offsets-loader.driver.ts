/**
 * Loads one `__consumer_offsets` partition into the coordinator state when this broker becomes
 * its leader (Kafka's loadGroupsAndOffsets): reads the log from its start to its end, batch by
 * batch, and replays every record, so the latest value per key wins and tombstones delete.
 */
import { decodeRecords, iterateBatches } from "../protocol/index.js";
import type { Partition } from "../replication/index.js";
import type { GroupCoordinatorState } from "./group-coordinator-state.js";
import { replayOffsetsRecord } from "./offset-records.js";

/** How many bytes one read of the log asks for while loading. */
export const LOAD_READ_BYTES = 5 * 1024 * 1024;
/** The largest decompressed batch loading accepts. */
const LOAD_DECOMPRESSED_BYTES_MAX = 100 * 1024 * 1024;

export interface LoadReport {
  readonly records: number;
  readonly endOffset: number;
}

/**
 * Replays the partition's log into `state`, then makes an Empty group for every group that has
 * offsets, as Kafka does. `isCurrent` says whether the load is still wanted (leadership may move
 * while it reads); when it turns false the load stops and reports what it did.
 */
export async function loadOffsetsPartition(
  partition: Partition,
  state: GroupCoordinatorState,
  at: { readonly nowMs: number; readonly isCurrent: () => boolean },
): Promise<LoadReport> {
  const endOffset = partition.logEndOffset;
  let fromOffset = partition.logStartOffset;
  let records = 0;
  const groupIds = new Set<string>();
  while (fromOffset < endOffset && at.isCurrent()) {
    const read = await partition.readLocal({
      fromOffset,
      maxBytes: LOAD_READ_BYTES,
      maxOffset: endOffset,
    });
    if (read.kind !== "records" || read.records.length === 0) break;
    for (const bytes of read.records) records += replayBatches(bytes, state, groupIds);
    if (read.nextOffset <= fromOffset) break;
    fromOffset = read.nextOffset;
  }
  state.ensureGroupsWithOffsets(groupIds, at.nowMs);
  return { records, endOffset: fromOffset };
}

/** Replays every record of the batches in `bytes`; returns how many records it replayed. */
function replayBatches(bytes: Uint8Array, state: GroupCoordinatorState, groupIds: Set<string>) {
  let count = 0;
  for (const entry of iterateBatches(bytes, { maxBatchBytes: bytes.length })) {
    if (entry.kind !== "batch") break;
    if (entry.header.isControl) continue;
    const decoded = decodeRecords(entry.bytes, {
      maxDecompressedBytes: LOAD_DECOMPRESSED_BYTES_MAX,
    });
    if (!decoded.ok) throw new Error(`__consumer_offsets holds a bad batch: ${decoded.error.kind}`);
    for (const record of decoded.records) {
      const replayed = replayOffsetsRecord(record);
      count++;
      if (replayed?.kind !== "offset") continue;
      state.replayOffset(replayed);
      groupIds.add(replayed.key.groupId);
    }
  }
  return count;
}
