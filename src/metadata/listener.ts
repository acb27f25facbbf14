/**
 * The loader's input from the raft layer, defined here so that the raft driver can call any
 * implementation of it: committed batches of `__cluster_metadata` in log order, and snapshots
 * that replace everything before them.
 */

/** A committed batch of metadata records, values as they are in the log. */
export interface CommittedBatch {
  readonly baseOffset: number;
  /** The offset of the last record (baseOffset + records.length - 1). */
  readonly lastOffset: number;
  /** The leader epoch the batch was written in. */
  readonly epoch: number;
  /** Each record's value: a framed metadata record (decodeMetadataRecord). */
  readonly records: readonly Uint8Array[];
}

/** A snapshot's identity: the offset just past its last record, and that record's epoch. */
export interface SnapshotId {
  readonly endOffset: number;
  readonly epoch: number;
}

/** A metadata snapshot to load: every record value of it, control records left out. */
export interface LoadedSnapshot {
  readonly snapshotId: SnapshotId;
  readonly records: readonly Uint8Array[];
}

/** What the raft driver calls, in log order, on the node's event loop. */
export interface MetadataListener {
  handleCommit(batch: CommittedBatch): void;
  handleLoadSnapshot(snapshot: LoadedSnapshot): void;
}
