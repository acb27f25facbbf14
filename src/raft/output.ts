/**
 * What a Raft node asks its driver to do after one input. Every input method returns one
 * RaftOutput; the driver applies its parts in the order of the fields below (see README.md).
 */
import { assert, type Uuid } from "../common/index.js";
import type { OutboundMessage } from "./messages.js";
import type { SnapshotId } from "./types.js";

/** The election state to write to the quorum-state file (QuorumStateData version 1). */
export interface QuorumStateToPersist {
  readonly leaderId: number;
  readonly leaderEpoch: number;
  readonly votedId: number;
  readonly votedDirectoryId: Uuid;
}

/** Record batches (v2, complete, with offsets and leader epoch set) to append to the log. */
export interface AppendAction {
  readonly batches: readonly Uint8Array[];
  /** The log end offset once they are appended; logAppended reports it back. */
  readonly endOffset: number;
}

/** A change to snapshot files or to the log's start that the driver carries out. */
export type SnapshotAction =
  /** Write a downloaded chunk into the partial snapshot file, at `position`. */
  | {
      readonly kind: "writeSnapshotChunk";
      readonly snapshotId: SnapshotId;
      readonly position: number;
      readonly bytes: Uint8Array;
    }
  /**
   * The download is complete: make the snapshot file final (durably), then replace the whole
   * log by an empty one that starts at snapshotId.endOffset, then call `snapshotLoaded`.
   */
  | {
      readonly kind: "installSnapshot";
      readonly snapshotId: SnapshotId;
      readonly sizeBytes: number;
    }
  /** Drop the partial file of an abandoned download. */
  | { readonly kind: "abandonSnapshotDownload"; readonly snapshotId: SnapshotId }
  /** Delete the log segments wholly below `offset` and set the log start offset to it. */
  | { readonly kind: "deleteLogBefore"; readonly offset: number }
  /** Delete an older snapshot file. */
  | { readonly kind: "deleteSnapshot"; readonly snapshotId: SnapshotId };

/** A change of the known leader, for listeners (the controller, the metadata loader). */
export interface LeaderChange {
  /** Null while no leader is known in the epoch. */
  readonly leaderId: number | null;
  readonly epoch: number;
}

/** Everything the driver must do after one input, in application order. */
export interface RaftOutput {
  /** 1. Persist durably before anything below is sent (a vote is durable before it is cast). */
  readonly quorumState: QuorumStateToPersist | null;
  /** 2. Truncate the log to this end offset (a follower's divergence). */
  readonly truncateTo: number | null;
  /** 3. Append these batches, then call `logAppended` once they are durable. */
  readonly append: AppendAction | null;
  /** 4. Snapshot files and log start changes, in order. */
  readonly snapshotActions: readonly SnapshotAction[];
  /** 5. Requests to nodes and responses to inbound requests, in order. */
  readonly send: readonly OutboundMessage[];
  /** 6. The new high watermark, when it moved (records below it are committed). */
  readonly highWatermark: number | null;
  /** 7. The new leader or epoch, when either changed. */
  readonly leaderChanged: LeaderChange | null;
  /** Call `tick` no later than this time (even when nothing else happens). */
  readonly wakeupAtMs: number;
}

/** Collects the output of one input as the node decides. */
export class OutputBuilder {
  private quorumState: QuorumStateToPersist | null = null;
  private truncateTo: number | null = null;
  private batches: Uint8Array[] = [];
  private appendEndOffset = -1;
  private readonly snapshotActions: SnapshotAction[] = [];
  private readonly send: OutboundMessage[] = [];
  private highWatermark: number | null = null;
  private leaderChanged: LeaderChange | null = null;

  /** Asks for the quorum state to be persisted; a later call in the same input replaces it. */
  persist(state: QuorumStateToPersist): void {
    this.quorumState = state;
  }

  /** Asks for a truncation; it must come before any append of the same output. */
  truncate(endOffset: number): void {
    assert(this.batches.length === 0, "a truncation precedes the appends of an output");
    this.truncateTo = Math.min(endOffset, this.truncateTo ?? endOffset);
  }

  /** Asks for a batch to be appended; the log will then end at `endOffset`. */
  append(batch: Uint8Array, endOffset: number): void {
    assert(endOffset > this.appendEndOffset, "appended batches follow each other");
    this.batches.push(batch);
    this.appendEndOffset = endOffset;
  }

  snapshot(action: SnapshotAction): void {
    this.snapshotActions.push(action);
  }

  message(message: OutboundMessage): void {
    this.send.push(message);
  }

  moveHighWatermark(highWatermark: number): void {
    this.highWatermark = highWatermark;
  }

  changeLeader(change: LeaderChange): void {
    this.leaderChanged = change;
  }

  build(wakeupAtMs: number): RaftOutput {
    return {
      quorumState: this.quorumState,
      truncateTo: this.truncateTo,
      append:
        this.batches.length === 0
          ? null
          : { batches: this.batches, endOffset: this.appendEndOffset },
      snapshotActions: this.snapshotActions,
      send: this.send,
      highWatermark: this.highWatermark,
      leaderChanged: this.leaderChanged,
      wakeupAtMs,
    };
  }
}
