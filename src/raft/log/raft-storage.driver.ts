/**
 * Everything of a Raft node on disk, in the metadata log's folder: the quorum-state file, the
 * metadata log and the snapshot files. It opens them for a restart and carries out the disk
 * parts of a node's output (README.md steps 1 to 4) and the reads its responses need (step 5).
 */
import { assert } from "../../common/index.js";
import type { Clock, FileSystem, Logger } from "../../ports/index.js";
import { controlRecordsOf, type LoggedControlRecord } from "../control-records.js";
import type { PersistedElectionState } from "../initial-state.js";
import type { LogShape } from "../log-view.js";
import type { OutboundMessage, RaftResponse } from "../messages.js";
import type { QuorumStateToPersist, SnapshotAction } from "../output.js";
import { readQuorumState, writeQuorumState } from "../quorum-state.driver.js";
import type { SnapshotInfo } from "../types.js";
import { wholeBatches } from "./log-batches.js";
import { metadataLogFolder, MetadataLog } from "./metadata-log.driver.js";
import { SnapshotStore } from "./snapshot-store.driver.js";

/** Kafka's default `metadata.log.segment.bytes`. */
export const DEFAULT_METADATA_SEGMENT_BYTES = 1024 * 1024 * 1024;

/** The most bytes of a snapshot file read to find its header batch. */
const SNAPSHOT_HEADER_READ_BYTES = 64 * 1024;

/** What a node is built from after opening its storage. */
export interface StoredRaftState {
  readonly electionState: PersistedElectionState;
  readonly log: LogShape & { readonly controlRecords: readonly LoggedControlRecord[] };
}

export class RaftStorage {
  private constructor(
    private readonly fs: FileSystem,
    /** The metadata log's folder, `<metadata.log.dir>/__cluster_metadata-0`. */
    readonly dir: string,
    readonly log: MetadataLog,
    readonly snapshots: SnapshotStore,
  ) {}

  /** Opens (creating or recovering) the files of `metadataLogDir` and reads what they hold. */
  static async open(options: {
    readonly fs: FileSystem;
    readonly clock: Clock;
    readonly logger: Logger;
    readonly metadataLogDir: string;
    readonly segmentBytes: number;
  }): Promise<{ storage: RaftStorage; state: StoredRaftState }> {
    const dir = metadataLogFolder(options.metadataLogDir);
    const snapshots = await SnapshotStore.open(options.fs, dir);
    const electionState = await readQuorumState(options.fs, dir);
    const latest = snapshots.latest();
    const log = await MetadataLog.open({
      ...options,
      dir,
      logStartOffset: latest?.snapshotId.endOffset ?? 0,
    });
    const scanned = await log.scan();
    const fromSnapshot = latest === undefined ? [] : await headerControlRecords(snapshots, latest);
    const state: StoredRaftState = {
      electionState,
      log: {
        ...scanned,
        snapshots: snapshots.list(),
        controlRecords: [...fromSnapshot, ...scanned.controlRecords],
      },
    };
    return { storage: new RaftStorage(options.fs, dir, log, snapshots), state };
  }

  /** Writes the quorum-state file atomically and durably. */
  persistQuorumState(state: QuorumStateToPersist): Promise<void> {
    return writeQuorumState(this.fs, this.dir, state);
  }

  /**
   * Carries out one snapshot action; for an installed download, resolves to the snapshot,
   * which the caller loads and reports with `snapshotLoaded`.
   */
  async applySnapshotAction(action: SnapshotAction): Promise<SnapshotInfo | undefined> {
    switch (action.kind) {
      case "writeSnapshotChunk":
        await this.snapshots.writeChunk(action.snapshotId, action.position, action.bytes);
        return undefined;
      case "installSnapshot": {
        const info = await this.snapshots.install(action.snapshotId, action.sizeBytes);
        // The snapshot is durable first, so a crash here leaves a log that ends before its
        // start, which opening the log turns into an empty log at the snapshot's end.
        await this.log.resetTo(action.snapshotId.endOffset);
        return info;
      }
      case "abandonSnapshotDownload":
        await this.snapshots.abandon(action.snapshotId);
        return undefined;
      case "deleteLogBefore":
        await this.log.deleteBefore(action.offset);
        return undefined;
      case "deleteSnapshot":
        await this.snapshots.delete(action.snapshotId);
        return undefined;
    }
  }

  /** Reads the log or snapshot data a response carries into its body. */
  async fill(message: Extract<OutboundMessage, { kind: "response" }>): Promise<RaftResponse> {
    const { read, response } = message;
    if (read === null) return response;
    if (read.kind === "log" && response.api === "fetch") {
      const partition = response.body.responses[0]?.partitions[0];
      assert(partition !== undefined, "a Fetch response with a read has a partition");
      partition.records = await this.log.read(read.fromOffset, read.maxBytes);
    } else if (read.kind === "snapshot" && response.api === "fetchSnapshot") {
      const partition = response.body.topics[0]?.partitions[0];
      assert(partition !== undefined, "a FetchSnapshot response with a read has a partition");
      partition.unalignedRecords = await this.snapshots.read(
        read.snapshotId,
        read.position,
        read.maxBytes,
      );
    }
    return response;
  }

  /** Closes the snapshot download under way and the log. */
  async close(): Promise<void> {
    await this.snapshots.close();
    await this.log.close();
  }
}

/** The KRaft control records of a snapshot's header batch, at the snapshot's last offset. */
async function headerControlRecords(
  snapshots: SnapshotStore,
  info: SnapshotInfo,
): Promise<LoggedControlRecord[]> {
  const length = Math.min(info.sizeBytes, SNAPSHOT_HEADER_READ_BYTES);
  const first = wholeBatches(await snapshots.read(info.snapshotId, 0, length))[0];
  if (first === undefined || !first.isControl) return [];
  const offset = info.snapshotId.endOffset - 1;
  return controlRecordsOf(first.bytes).map((record) => ({ offset, value: record.value }));
}
