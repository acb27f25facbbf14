/**
 * Builders of the complete request bodies the node sends, each for the single partition of
 * the metadata log. Fields a version lacks hold their defaults; the driver picks the version.
 */
import { ONE_UUID, ZERO_UUID } from "../common/index.js";
import type {
  BeginQuorumEpochRequest,
  EndQuorumEpochRequest,
  FetchRequest,
  FetchSnapshotRequest,
  VoteRequest,
} from "../protocol/index.js";
import {
  METADATA_PARTITION_INDEX as PARTITION,
  METADATA_TOPIC_NAME as TOPIC,
  type Endpoint,
  type ReplicaKey,
  type SnapshotId,
} from "./types.js";

/** Kafka's id of the metadata topic (Uuid.METADATA_TOPIC_ID), used by Fetch v13+. */
export const METADATA_TOPIC_ID = ONE_UUID;

/** A Vote request (KIP-595), or a pre-vote (KIP-996) when `isPreVote`. */
export function buildVoteRequest(options: {
  readonly clusterId: string | null;
  readonly epoch: number;
  readonly candidateKey: ReplicaKey;
  readonly voterKey: ReplicaKey;
  readonly lastOffsetEpoch: number;
  readonly lastOffset: number;
  readonly isPreVote: boolean;
}): VoteRequest {
  return {
    clusterId: options.clusterId,
    voterId: options.voterKey.id,
    topics: [
      {
        topicName: TOPIC,
        partitions: [
          {
            partitionIndex: PARTITION,
            candidateEpoch: options.epoch,
            candidateId: options.candidateKey.id,
            candidateDirectoryId: options.candidateKey.directoryId ?? ZERO_UUID,
            voterDirectoryId: options.voterKey.directoryId ?? ZERO_UUID,
            lastOffsetEpoch: options.lastOffsetEpoch,
            lastOffset: options.lastOffset,
            preVote: options.isPreVote,
          },
        ],
      },
    ],
  };
}

/** A BeginQuorumEpoch request: the new leader announces itself to a voter. */
export function buildBeginQuorumEpochRequest(options: {
  readonly clusterId: string | null;
  readonly epoch: number;
  readonly leaderId: number;
  readonly voterKey: ReplicaKey;
  readonly leaderEndpoints: readonly Endpoint[];
}): BeginQuorumEpochRequest {
  return {
    clusterId: options.clusterId,
    voterId: options.voterKey.id,
    topics: [
      {
        topicName: TOPIC,
        partitions: [
          {
            partitionIndex: PARTITION,
            voterDirectoryId: options.voterKey.directoryId ?? ZERO_UUID,
            leaderId: options.leaderId,
            leaderEpoch: options.epoch,
          },
        ],
      },
    ],
    leaderEndpoints: options.leaderEndpoints.map((endpoint) => ({ ...endpoint })),
  };
}

/** An EndQuorumEpoch request: the leader resigns and names its preferred successors. */
export function buildEndQuorumEpochRequest(options: {
  readonly clusterId: string | null;
  readonly epoch: number;
  readonly leaderId: number;
  readonly preferredSuccessors: readonly ReplicaKey[];
  readonly leaderEndpoints: readonly Endpoint[];
}): EndQuorumEpochRequest {
  return {
    clusterId: options.clusterId,
    topics: [
      {
        topicName: TOPIC,
        partitions: [
          {
            partitionIndex: PARTITION,
            leaderId: options.leaderId,
            leaderEpoch: options.epoch,
            preferredSuccessors: options.preferredSuccessors.map((key) => key.id),
            preferredCandidates: options.preferredSuccessors.map((key) => ({
              candidateId: key.id,
              candidateDirectoryId: key.directoryId ?? ZERO_UUID,
            })),
          },
        ],
      },
    ],
    leaderEndpoints: options.leaderEndpoints.map((endpoint) => ({ ...endpoint })),
  };
}

/** A replica's Fetch of the metadata log from the leader it knows (or a voter it asks). */
export function buildFetchRequest(options: {
  readonly clusterId: string | null;
  readonly replicaKey: ReplicaKey;
  readonly epoch: number;
  readonly fetchOffset: number;
  readonly lastFetchedEpoch: number;
  readonly maxWaitMs: number;
  readonly maxBytes: number;
}): FetchRequest {
  const partition = {
    partition: PARTITION,
    currentLeaderEpoch: options.epoch,
    fetchOffset: options.fetchOffset,
    lastFetchedEpoch: options.lastFetchedEpoch,
    logStartOffset: -1,
    partitionMaxBytes: options.maxBytes,
    replicaDirectoryId: options.replicaKey.directoryId ?? ZERO_UUID,
  };
  return {
    clusterId: options.clusterId,
    replicaId: options.replicaKey.id,
    replicaState: { replicaId: options.replicaKey.id, replicaEpoch: -1 },
    maxWaitMs: options.maxWaitMs,
    minBytes: 0,
    maxBytes: options.maxBytes,
    isolationLevel: 0,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [{ topic: TOPIC, topicId: METADATA_TOPIC_ID, partitions: [partition] }],
    forgottenTopicsData: [],
    rackId: "",
  };
}

/** A FetchSnapshot request for the next chunk of a snapshot (KIP-630). */
export function buildFetchSnapshotRequest(options: {
  readonly clusterId: string | null;
  readonly replicaKey: ReplicaKey;
  readonly epoch: number;
  readonly snapshotId: SnapshotId;
  readonly position: number;
  readonly maxBytes: number;
}): FetchSnapshotRequest {
  const { endOffset, epoch } = options.snapshotId;
  return {
    clusterId: options.clusterId,
    replicaId: options.replicaKey.id,
    maxBytes: options.maxBytes,
    topics: [
      {
        name: TOPIC,
        partitions: [
          {
            partition: PARTITION,
            currentLeaderEpoch: options.epoch,
            snapshotId: { endOffset, epoch },
            position: options.position,
            replicaDirectoryId: options.replicaKey.directoryId ?? ZERO_UUID,
          },
        ],
      },
    ],
  };
}
