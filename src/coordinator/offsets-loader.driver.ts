/**
 * Loads one `__consumer_offsets` partition into the coordinator state when this broker becomes
 * its leader (Kafka's loadGroupsAndOffsets): reads the log from its start to its end, batch by
 * batch, and replays every record, so the latest value per key wins and tombstones delete. The
 * offsets of a transaction (TxnOffsetCommit) count only once its COMMIT marker follows; an
 * ABORT drops them, and those still undecided at the end stay pending. Consumer groups
 * (KIP-848) are rebuilt from the latest of their records, classic groups from their latest
 * GroupMetadata record (a tombstone removes the group).
 */
import { decodeControlRecord, decodeRecords, iterateBatches } from "../protocol/index.js";
import type { Partition } from "../replication/index.js";
import type { GroupCoordinatorState } from "./group-coordinator-state.js";
import { replayOffsetsRecord, type OffsetRecord } from "./offset-records.js";
import { LoadedConsumerGroups, type PersistedConsumerGroup } from "./consumer-group-records.js";
import type { PersistedClassicGroup } from "./classic-group-records.js";
import type { TransactionalOffsets } from "./transactional-offsets.js";

/** How many bytes one read of the log asks for while loading. */
export const LOAD_READ_BYTES = 5 * 1024 * 1024;
/** The largest decompressed batch loading accepts. */
const LOAD_DECOMPRESSED_BYTES_MAX = 100 * 1024 * 1024;

export interface LoadReport {
  readonly records: number;
  readonly endOffset: number;
}

interface Replay {
  readonly state: GroupCoordinatorState;
  readonly groupIds: Set<string>;
  /** Transactional offsets by producer id, until their marker. */
  readonly pending: Map<number, OffsetRecord[]>;
  readonly consumerGroups: LoadedConsumerGroups;
  /** The latest record of each classic group. */
  readonly classicGroups: Map<string, PersistedClassicGroup>;
}

/**
 * Replays the partition's log into `state`, then makes an Empty group for every group that has
 * offsets, as Kafka does; undecided transactional offsets go to `at.transactional`. `isCurrent`
 * says whether the load is still wanted (leadership may move while it reads); when it turns
 * false the load stops and reports what it did.
 */
export async function loadOffsetsPartition(
  partition: Partition,
  state: GroupCoordinatorState,
  at: {
    readonly nowMs: number;
    readonly isCurrent: () => boolean;
    readonly transactional?: TransactionalOffsets;
    /** A consumer group (KIP-848) rebuilt from its records, already added to `state`. */
    readonly onConsumerGroup?: (groupId: string, group: PersistedConsumerGroup) => void;
    /** A classic group rebuilt from its record, already added to `state`. */
    readonly onClassicGroup?: (groupId: string) => void;
  },
): Promise<LoadReport> {
  let records = 0;
  const consumerGroups = new LoadedConsumerGroups();
  const classicGroups = new Map<string, PersistedClassicGroup>();
  const replay: Replay = {
    ...{ state, groupIds: new Set<string>(), pending: new Map() },
    ...{ consumerGroups, classicGroups },
  };
  const endOffset = await readWholeLog(partition, at.isCurrent, (bytes) => {
    records += replayBatches(bytes, replay);
  });
  if (!at.isCurrent()) return { records, endOffset };
  for (const [groupId, group] of consumerGroups.rebuilt()) {
    state.consumer.restore(groupId, group, at.nowMs);
    at.onConsumerGroup?.(groupId, group);
  }
  for (const [groupId, record] of classicGroups) {
    // A group id names one kind or the other: a consumer group's records win.
    if (state.consumer.group(groupId) !== undefined) continue;
    state.loadClassicGroup(groupId, record, at.nowMs);
    at.onClassicGroup?.(groupId);
  }
  state.ensureGroupsWithOffsets(replay.groupIds, at.nowMs);
  for (const [producerId, pending] of replay.pending) {
    at.transactional?.add(partition.topicPartition.partition, producerId, pending);
  }
  return { records, endOffset };
}

/**
 * Reads a coordinator partition from its log start to the log end it has now, handing each
 * chunk of whole batches to `onBytes`; stops early once `isCurrent` turns false. Resolves to
 * the offset it read up to.
 */
export async function readWholeLog(
  partition: Partition,
  isCurrent: () => boolean,
  onBytes: (bytes: Uint8Array) => void,
): Promise<number> {
  const endOffset = partition.logEndOffset;
  let fromOffset = partition.logStartOffset;
  while (fromOffset < endOffset && isCurrent()) {
    const read = await partition.readLocal({
      fromOffset,
      maxBytes: LOAD_READ_BYTES,
      maxOffset: endOffset,
    });
    if (read.kind !== "records" || read.records.length === 0) break;
    if (!isCurrent()) break;
    for (const bytes of read.records) onBytes(bytes);
    if (read.nextOffset <= fromOffset) break;
    fromOffset = read.nextOffset;
  }
  return fromOffset;
}

/** Replays every record of the batches in `bytes`; returns how many records it replayed. */
function replayBatches(bytes: Uint8Array, replay: Replay): number {
  let count = 0;
  for (const entry of iterateBatches(bytes, { maxBatchBytes: bytes.length })) {
    if (entry.kind !== "batch") break;
    const { header } = entry;
    const decoded = decodeRecords(entry.bytes, {
      maxDecompressedBytes: LOAD_DECOMPRESSED_BYTES_MAX,
    });
    if (!decoded.ok) throw new Error(`__consumer_offsets holds a bad batch: ${decoded.error.kind}`);
    if (header.isControl) {
      const first = decoded.records[0];
      const control = first === undefined ? undefined : decodeControlRecord(first);
      if (control?.ok !== true) continue;
      const { type } = control.control;
      if (type !== "commit" && type !== "abort") continue;
      const pending = replay.pending.get(header.producerId) ?? [];
      replay.pending.delete(header.producerId);
      if (type === "commit") for (const record of pending) apply(replay, record);
      continue;
    }
    for (const record of decoded.records) {
      const replayed = replayOffsetsRecord(record);
      count++;
      if (replayed?.kind === "consumerGroup") {
        replay.consumerGroups.replay(replayed.key, record.value);
        continue;
      }
      if (replayed?.kind === "groupMetadata") {
        if (replayed.value === null) replay.classicGroups.delete(replayed.groupId);
        else replay.classicGroups.set(replayed.groupId, replayed.value);
        continue;
      }
      if (replayed?.kind !== "offset") continue;
      const offset = { key: replayed.key, value: replayed.value };
      if (!header.isTransactional) {
        apply(replay, offset);
        continue;
      }
      const pending = replay.pending.get(header.producerId) ?? [];
      pending.push(offset);
      replay.pending.set(header.producerId, pending);
    }
  }
  return count;
}

function apply(replay: Replay, record: OffsetRecord): void {
  replay.state.replayOffset(record);
  replay.groupIds.add(record.key.groupId);
}
