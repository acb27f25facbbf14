/**
 * The small value types the Raft node speaks in: replica keys (KIP-853), offsets paired with the
 * epoch that wrote them, snapshot ids (KIP-630) and listener endpoints.
 */
import type { Uuid } from "../common/index.js";

/** A replica's identity: its node id and, since KIP-853, the id of its metadata log directory. */
export interface ReplicaKey {
  readonly id: number;
  /** Null when unknown (kraft.version 0 voters, or old requests without the field). */
  readonly directoryId: Uuid | null;
}

/** An offset together with the epoch of the record before it (or of a snapshot). */
export interface OffsetAndEpoch {
  readonly offset: number;
  readonly epoch: number;
}

/**
 * A snapshot's id, as in its file name `<endOffset>-<epoch>.checkpoint`: it holds the state of
 * every record below endOffset, and epoch is the epoch of the record at endOffset - 1.
 */
export interface SnapshotId {
  readonly endOffset: number;
  readonly epoch: number;
}

/** A snapshot the node knows is complete on disk, with its size for FetchSnapshot positions. */
export interface SnapshotInfo {
  readonly snapshotId: SnapshotId;
  readonly sizeBytes: number;
}

/** A named listener endpoint (VotersRecord, BeginQuorumEpoch leaderEndpoints). */
export interface Endpoint {
  readonly name: string;
  readonly host: string;
  readonly port: number;
}

/** The lowest node id Kafka accepts; observers without an id fetch with replica id -1. */
export const NO_REPLICA_ID = -1;

/** The name of the metadata log's topic, as Kafka's KRaft partition. */
export const METADATA_TOPIC_NAME = "__cluster_metadata";

export const METADATA_PARTITION_INDEX = 0;

/** True when two replica keys name the same replica; an unknown directory id matches any. */
export function sameReplica(left: ReplicaKey, right: ReplicaKey): boolean {
  if (left.id !== right.id) return false;
  if (left.directoryId === null || right.directoryId === null) return true;
  return left.directoryId === right.directoryId;
}

/** Compares snapshot ids by end offset, then epoch. */
export function compareSnapshotIds(left: SnapshotId, right: SnapshotId): number {
  if (left.endOffset !== right.endOffset) return left.endOffset - right.endOffset;
  return left.epoch - right.epoch;
}

/** A snapshot id as its file stem, `<endOffset>-<epoch>` (the driver pads it as Kafka does). */
export function snapshotName(snapshotId: SnapshotId): string {
  return `${snapshotId.endOffset}-${snapshotId.epoch}`;
}
