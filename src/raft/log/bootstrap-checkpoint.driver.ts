/**
 * The bootstrap checkpoint of a dynamic quorum (KIP-853): the snapshot
 * `00000000000000000000-0000000000.checkpoint` that `format --standalone` or
 * `--initial-controllers` writes into the metadata log's folder. It holds no metadata, only a
 * SnapshotHeader, the KRaftVersion (1) and the Voters records, then a SnapshotFooter, as Kafka's
 * storage tool writes it; a node that starts with it knows the voter set before its log does.
 */
import type { FileSystem } from "../../ports/index.js";
import type { ConfiguredVoter } from "../config.js";
import { snapshotFooterBatch, snapshotHeaderBatch } from "../control-records.js";
import { VoterSet } from "../voter-set.js";
import { RecordBatchHeader } from "../../protocol/index.js";
import { metadataLogFolder } from "./metadata-log.driver.js";
import { SnapshotStore } from "./snapshot-store.driver.js";

/** The id of the bootstrap checkpoint: end offset 0 in epoch 0. */
export const BOOTSTRAP_SNAPSHOT_ID = { endOffset: 0, epoch: 0 } as const;

export type BootstrapCheckpointResult =
  { readonly kind: "written"; readonly sizeBytes: number } | { readonly kind: "exists" };

/**
 * Writes the bootstrap checkpoint holding `voters` (each with its directory id) into
 * `<metadataLogDir>/__cluster_metadata-0`, durably; refuses when a snapshot is already there.
 */
export async function writeBootstrapCheckpoint(
  fs: FileSystem,
  options: {
    readonly metadataLogDir: string;
    readonly voters: readonly ConfiguredVoter[];
    readonly timestamp: number;
  },
): Promise<BootstrapCheckpointResult> {
  const store = await SnapshotStore.open(fs, metadataLogFolder(options.metadataLogDir));
  try {
    if (store.latest() !== undefined) return { kind: "exists" };
    const header = snapshotHeaderBatch({
      epoch: BOOTSTRAP_SNAPSHOT_ID.epoch,
      lastContainedLogTimestamp: options.timestamp,
      kraftVersion: 1,
      voters: VoterSet.fromConfigured(options.voters),
    });
    const footer = snapshotFooterBatch({
      baseOffset: new RecordBatchHeader(header).lastOffset + 1,
      epoch: BOOTSTRAP_SNAPSHOT_ID.epoch,
      timestamp: options.timestamp,
    });
    const info = await store.write(BOOTSTRAP_SNAPSHOT_ID, [header, footer]);
    return { kind: "written", sizeBytes: info.sizeBytes };
  } finally {
    await store.close();
  }
}
