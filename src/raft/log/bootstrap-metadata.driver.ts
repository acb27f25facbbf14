/**
 * The bootstrap metadata file, Kafka's `bootstrap.checkpoint` in the metadata log dir: the
 * records `format` chose for a new cluster (its finalized feature levels), which the first
 * active controller writes into an empty metadata log. Its layout is a KRaft snapshot's, as
 * Kafka's BatchFileWriter makes it: a SnapshotHeader batch, the records in data batches, a
 * SnapshotFooter batch, all in epoch 0 from offset 0. This module moves the records' bytes;
 * which records they are is the controller's business.
 */
import { joinPath } from "../../common/index.js";
import type { FileSystem } from "../../ports/index.js";
import { decodeRecords, iterateBatches } from "../../protocol/index.js";
import { MalformedFileError, readFileIfExists, writeFileAtomically } from "../../storage/index.js";
import { snapshotHeaderBatch } from "../control-records.js";
import { VoterSet } from "../voter-set.js";
import { METADATA_BATCH_BYTES_MAX } from "./log-batches.js";
import { snapshotBatches } from "./snapshot-batches.js";

/** The file's name inside the metadata log dir, as Kafka's BootstrapDirectory names it. */
export const BOOTSTRAP_METADATA_FILE = "bootstrap.checkpoint";

/** The most bytes the file's batches may expand to; it holds a handful of small records. */
const DECOMPRESSED_BYTES_MAX = 8 * 1024 * 1024;

/** Writes `records` (metadata record values) as the bootstrap file of `metadataLogDir`. */
export async function writeBootstrapMetadata(
  fs: FileSystem,
  options: {
    readonly metadataLogDir: string;
    readonly records: readonly Uint8Array[];
    readonly timestamp: number;
  },
): Promise<void> {
  const headerBatch = snapshotHeaderBatch({
    epoch: 0,
    lastContainedLogTimestamp: 0,
    kraftVersion: 0,
    voters: VoterSet.fromConfigured([]),
  });
  const batches = snapshotBatches({
    snapshotId: { endOffset: 0, epoch: 0 },
    headerBatch,
    records: options.records,
    timestamp: options.timestamp,
  });
  const size = batches.reduce((total, batch) => total + batch.length, 0);
  const bytes = new Uint8Array(size);
  let position = 0;
  for (const batch of batches) {
    bytes.set(batch, position);
    position += batch.length;
  }
  const path = joinPath(options.metadataLogDir, BOOTSTRAP_METADATA_FILE);
  await writeFileAtomically(fs, path, bytes);
}

/**
 * The record values of `metadataLogDir`'s bootstrap file, control records left out, or
 * undefined when there is no such file. A file that is not whole batches is a
 * MalformedFileError.
 */
export async function readBootstrapMetadata(
  fs: FileSystem,
  metadataLogDir: string,
): Promise<Uint8Array[] | undefined> {
  const path = joinPath(metadataLogDir, BOOTSTRAP_METADATA_FILE);
  const bytes = await readFileIfExists(fs, path);
  if (bytes === undefined) return undefined;
  const records: Uint8Array[] = [];
  for (const entry of iterateBatches(bytes, { maxBatchBytes: METADATA_BATCH_BYTES_MAX })) {
    if (entry.kind !== "batch") {
      throw new MalformedFileError(path, `no whole record batch at byte ${entry.position}`);
    }
    if (entry.header.isControl) continue;
    const decoded = decodeRecords(entry.bytes, { maxDecompressedBytes: DECOMPRESSED_BYTES_MAX });
    if (!decoded.ok) {
      throw new MalformedFileError(path, `the batch at byte ${entry.position} does not decode`);
    }
    for (const record of decoded.records) records.push(record.value ?? new Uint8Array(0));
  }
  return records;
}
