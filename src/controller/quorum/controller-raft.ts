/**
 * What the quorum controller needs from the Raft layer of the metadata log, kept small so that a
 * fake can stand in for it in tests and any driver can be adapted to it: propose records as one
 * batch, learn the leader and epoch, be told of leader changes, receive committed batches and
 * snapshots in log order, and ask for a snapshot to be written.
 */
import type { MetadataListener } from "../../metadata/index.js";

/** The leader of an epoch, as the Raft layer knows it; leaderId is null while none is known. */
export interface LeaderAndEpoch {
  readonly leaderId: number | null;
  readonly epoch: number;
}

export type ControllerProposeResult =
  /** The records got offsets baseOffset..lastOffset in `epoch`; committed if that commits. */
  | {
      readonly kind: "accepted";
      readonly baseOffset: number;
      readonly lastOffset: number;
      readonly epoch: number;
    }
  /**
   * Nothing was appended: this node does not lead, too much waits to become durable, or the
   * records do not fit in one batch.
   */
  | { readonly kind: "refused"; readonly reason: "notLeader" | "throttled" | "tooLarge" }
  /**
   * Nothing was appended: the records had a `requiredBaseOffset` and would have started at
   * `nextOffset` instead (the log holds records the controller did not write, such as KRaft
   * control records).
   */
  | { readonly kind: "refused"; readonly reason: "offsetMismatch"; readonly nextOffset: number };

export interface ControllerProposeOptions {
  /**
   * Kafka's requiredBaseOffset: append only if the first record gets exactly this offset. A
   * broker registration needs it, since the broker epoch is its record's offset.
   */
  readonly requiredBaseOffset?: number;
}

/** What the controller gives the Raft layer to write a snapshot of its committed image. */
export interface ControllerSnapshotRequest {
  /** The offset just past the image's last record (a committed offset). */
  readonly endOffset: number;
  /** The wall-clock time of the snapshot, for its batches. */
  readonly lastContainedLogTimestamp: number;
  /** The image's records, each framed as a metadata record value. */
  readonly records: readonly Uint8Array[];
}

export type ControllerSnapshotResult =
  { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The controller's listener: committed metadata plus leader changes. */
export interface ControllerRaftListener extends MetadataListener {
  handleLeaderChange(change: LeaderAndEpoch): void;
}

/**
 * The Raft layer as the quorum controller sees it. Every callback of a registered listener runs
 * on the node's event loop, in log order, and committed batches exclude KRaft control batches.
 */
export interface ControllerRaft {
  readonly nodeId: number;
  /**
   * Appends `records` as one batch at the leader; refused, writing nothing, when this node does
   * not lead or when they would not start at `options.requiredBaseOffset`.
   */
  propose(
    records: readonly Uint8Array[],
    options?: ControllerProposeOptions,
  ): Promise<ControllerProposeResult>;
  leaderAndEpoch(): LeaderAndEpoch;
  /** The ids of the voters in the voter set in force (UpdateFeatures checks they registered). */
  voterIds(): readonly number[];
  registerListener(listener: ControllerRaftListener): void;
  /** Writes a snapshot of the committed state (the log before it may then be deleted). */
  createSnapshot(request: ControllerSnapshotRequest): Promise<ControllerSnapshotResult>;
}
