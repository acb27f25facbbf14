/**
 * The simulated state machine: its state after offset X is a hash chain over every batch below
 * X (base offset, epoch, a hash of the bytes). A node's snapshot stores that digest in one data
 * record between the SnapshotHeader and SnapshotFooter batches, so a checker can tell whether a
 * snapshot, written locally or downloaded, holds exactly the committed history it claims.
 */
import {
  encodeBatch,
  decodeRecords,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
} from "../../src/protocol/index.js";
import { RecordBatchHeader } from "../../src/protocol/index.js";
import { snapshotFooterBatch, type SnapshotId } from "../../src/raft/index.js";
import { Fnv1a64 } from "../hash.js";
import type { DiskState, StoredBatch } from "./disk-state.js";

/** The digest of the empty state (nothing below offset 0). */
export const EMPTY_DIGEST = "empty";

const batchHashes = new WeakMap<Uint8Array, string>();

/** The FNV-1a 64 hash of a batch's bytes (cached per buffer: batches never change). */
export function batchHash(bytes: Uint8Array): string {
  let hash = batchHashes.get(bytes);
  if (hash === undefined) {
    hash = new Fnv1a64().updateBytes(bytes).hex();
    batchHashes.set(bytes, hash);
  }
  return hash;
}

/** The digest after applying one more batch to the state `previous`. */
export function chainDigest(
  previous: string,
  batch: { readonly baseOffset: number; readonly epoch: number; readonly hash: string },
): string {
  return new Fnv1a64()
    .updateText(`${previous}|${batch.baseOffset}:${batch.epoch}:${batch.hash}`)
    .hex();
}

/**
 * The digest of a disk's state below `endOffset`, from its latest snapshot at or below it and
 * the log batches after that; undefined when the log does not hold that range whole or
 * `endOffset` is not at a batch boundary.
 */
export function digestOfLog(state: DiskState, endOffset: number): string | undefined {
  let from = 0;
  let digest = EMPTY_DIGEST;
  for (const snapshot of state.snapshots.values()) {
    const snapshotEnd = snapshot.snapshotId.endOffset;
    if (snapshotEnd > endOffset || snapshotEnd < from) continue;
    from = snapshotEnd;
    digest = snapshotDigest(snapshot.bytes);
  }
  let next = from;
  for (let index = state.firstBatchAtOrAfter(from); index < state.batches.length; index++) {
    const batch = state.batches[index] as StoredBatch;
    if (batch.baseOffset >= endOffset) break;
    if (batch.baseOffset !== next || batch.lastOffset >= endOffset) return undefined;
    digest = chainDigest(digest, { ...batch, hash: batchHash(batch.bytes) });
    next = batch.lastOffset + 1;
  }
  return next === endOffset ? digest : undefined;
}

/** A whole snapshot file: the node's header batch, one record holding the digest, a footer. */
export function snapshotFile(options: {
  readonly snapshotId: SnapshotId;
  readonly headerBatch: Uint8Array;
  readonly digest: string;
  readonly timestamp: number;
}): Uint8Array {
  const headerRecords = new RecordBatchHeader(options.headerBatch).lastOffset + 1;
  const data = encodeBatch({
    baseOffset: headerRecords,
    partitionLeaderEpoch: options.snapshotId.epoch,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: NO_PRODUCER_ID,
    producerEpoch: -1,
    baseSequence: NO_SEQUENCE,
    records: [
      { timestamp: options.timestamp, key: null, value: new TextEncoder().encode(options.digest) },
    ],
  });
  const footer = snapshotFooterBatch({
    baseOffset: headerRecords + 1,
    epoch: options.snapshotId.epoch,
    timestamp: options.timestamp,
  });
  const file = new Uint8Array(options.headerBatch.length + data.length + footer.length);
  file.set(options.headerBatch);
  file.set(data, options.headerBatch.length);
  file.set(footer, options.headerBatch.length + data.length);
  return file;
}

/** The digest a snapshot file holds (its second batch's only record). */
export function snapshotDigest(file: Uint8Array): string {
  const headerSize = new RecordBatchHeader(file).sizeInBytes;
  const rest = file.subarray(headerSize);
  const dataSize = new RecordBatchHeader(rest).sizeInBytes;
  const decoded = decodeRecords(rest.subarray(0, dataSize), { maxDecompressedBytes: 1 << 20 });
  if (!decoded.ok) return "undecodable";
  const value = decoded.records[0]?.value;
  return value === undefined || value === null ? "missing" : new TextDecoder().decode(value);
}
