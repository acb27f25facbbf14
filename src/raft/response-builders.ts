/**
 * Builders of the complete response bodies the node sends, each for the single partition of
 * the metadata log. A partition-level error carries the current leader id and epoch so the
 * requester can find the leader, as Kafka's KRaft responses do.
 */
import type {
  BeginQuorumEpochResponse,
  EndQuorumEpochResponse,
  FetchResponse,
  FetchSnapshotResponse,
  VoteResponse,
} from "../protocol/index.js";
import { METADATA_TOPIC_ID } from "./request-builders.js";
import {
  METADATA_PARTITION_INDEX as PARTITION,
  METADATA_TOPIC_NAME as TOPIC,
  type Endpoint,
  type OffsetAndEpoch,
  type SnapshotId,
} from "./types.js";

/** The leader a response names: -1 when unknown. */
export interface LeaderAndEpoch {
  readonly leaderId: number;
  readonly epoch: number;
}

export function buildVoteResponse(options: {
  readonly errorCode: number;
  readonly partitionErrorCode: number;
  readonly leader: LeaderAndEpoch;
  readonly isGranted: boolean;
}): VoteResponse {
  const partition = {
    partitionIndex: PARTITION,
    errorCode: options.partitionErrorCode,
    leaderId: options.leader.leaderId,
    leaderEpoch: options.leader.epoch,
    voteGranted: options.isGranted,
  };
  return {
    errorCode: options.errorCode,
    topics: [{ topicName: TOPIC, partitions: [partition] }],
    nodeEndpoints: [],
  };
}

/** A BeginQuorumEpoch or EndQuorumEpoch response (the two share their layout). */
export function buildQuorumEpochResponse(options: {
  readonly errorCode: number;
  readonly partitionErrorCode: number;
  readonly leader: LeaderAndEpoch;
}): BeginQuorumEpochResponse & EndQuorumEpochResponse {
  const partition = {
    partitionIndex: PARTITION,
    errorCode: options.partitionErrorCode,
    leaderId: options.leader.leaderId,
    leaderEpoch: options.leader.epoch,
  };
  return {
    errorCode: options.errorCode,
    topics: [{ topicName: TOPIC, partitions: [partition] }],
    nodeEndpoints: [],
  };
}

/**
 * A Fetch response for the metadata partition: an error, a diverging epoch, a snapshot id, or
 * data the driver reads in (empty records here, as Kafka's MemoryRecords.EMPTY).
 */
export function buildFetchResponse(options: {
  readonly errorCode: number;
  readonly partitionErrorCode: number;
  readonly leader: LeaderAndEpoch;
  readonly highWatermark: number;
  readonly logStartOffset: number;
  readonly divergingEpoch?: OffsetAndEpoch;
  readonly snapshotId?: SnapshotId;
  /**
   * The leader's endpoint, when known: Fetch v16+ names it in `nodeEndpoints` so that an
   * observer that found the quorum through a bootstrap server can reach the leader (KIP-853).
   */
  readonly leaderEndpoint?: Endpoint;
}): FetchResponse {
  const partition = {
    partitionIndex: PARTITION,
    errorCode: options.partitionErrorCode,
    highWatermark: options.highWatermark,
    lastStableOffset: -1,
    logStartOffset: options.logStartOffset,
    divergingEpoch: {
      epoch: options.divergingEpoch?.epoch ?? -1,
      endOffset: options.divergingEpoch?.offset ?? -1,
    },
    currentLeader: { leaderId: options.leader.leaderId, leaderEpoch: options.leader.epoch },
    snapshotId: {
      endOffset: options.snapshotId?.endOffset ?? -1,
      epoch: options.snapshotId?.epoch ?? -1,
    },
    abortedTransactions: null,
    preferredReadReplica: -1,
    records: new Uint8Array(0),
  };
  return {
    throttleTimeMs: 0,
    errorCode: options.errorCode,
    sessionId: 0,
    responses: [{ topic: TOPIC, topicId: METADATA_TOPIC_ID, partitions: [partition] }],
    nodeEndpoints:
      options.leaderEndpoint === undefined
        ? []
        : [
            {
              nodeId: options.leader.leaderId,
              host: options.leaderEndpoint.host,
              port: options.leaderEndpoint.port,
              rack: null,
            },
          ],
  };
}

/** A FetchSnapshot response; the driver reads the chunk into `unalignedRecords`. */
export function buildFetchSnapshotResponse(options: {
  readonly errorCode: number;
  readonly partitionErrorCode: number;
  readonly leader: LeaderAndEpoch;
  readonly snapshotId: SnapshotId;
  readonly sizeBytes: number;
  readonly position: number;
}): FetchSnapshotResponse {
  const { endOffset, epoch } = options.snapshotId;
  const partition = {
    index: PARTITION,
    errorCode: options.partitionErrorCode,
    snapshotId: { endOffset, epoch },
    currentLeader: { leaderId: options.leader.leaderId, leaderEpoch: options.leader.epoch },
    size: options.sizeBytes,
    position: options.position,
    unalignedRecords: null,
  };
  return {
    throttleTimeMs: 0,
    errorCode: options.errorCode,
    topics: [{ name: TOPIC, partitions: [partition] }],
    nodeEndpoints: [],
  };
}

/** An AddRaftVoter or RemoveRaftVoter response. */
export function buildVoterChangeResponse(options: {
  readonly errorCode: number;
  readonly errorMessage: string | null;
}): { throttleTimeMs: number; errorCode: number; errorMessage: string | null } {
  return { throttleTimeMs: 0, errorCode: options.errorCode, errorMessage: options.errorMessage };
}
