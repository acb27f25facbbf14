/**
 * DescribeQuorum (version 2): the leader's view of the quorum, each voter's and observer's log
 * end offset and fetch times, and the voters' listeners.
 */
import { ErrorCode, ZERO_UUID } from "../common/index.js";
import type {
  DescribeQuorumResponse,
  DescribeQuorumResponseReplicaState,
} from "../protocol/index.js";
import type { ReplicaProgress } from "./leader-state.js";
import type { NodeCore } from "./node-core.js";
import { METADATA_PARTITION_INDEX, METADATA_TOPIC_NAME } from "./types.js";

/** Kafka forgets an observer that has not fetched for five minutes. */
export const OBSERVER_SESSION_TIMEOUT_MS = 5 * 60 * 1000;

function replicaStateOf(progress: ReplicaProgress): DescribeQuorumResponseReplicaState {
  return {
    replicaId: progress.key.id,
    replicaDirectoryId: progress.key.directoryId ?? ZERO_UUID,
    logEndOffset: progress.endOffset ?? -1,
    lastFetchTimestamp: progress.lastFetchTimestamp,
    lastCaughtUpTimestamp: progress.lastCaughtUpTimestamp,
  };
}

/** The DescribeQuorum answer: the quorum at the leader, NOT_LEADER_OR_FOLLOWER elsewhere. */
export function describeQuorum(core: NodeCore): DescribeQuorumResponse {
  const state = core.state;
  const partition = {
    partitionIndex: METADATA_PARTITION_INDEX,
    errorCode: ErrorCode.NONE as number,
    errorMessage: null as string | null,
    leaderId: core.leaderAndEpoch().leaderId,
    leaderEpoch: core.epoch(),
    highWatermark: core.highWatermark ?? -1,
    currentVoters: [] as DescribeQuorumResponseReplicaState[],
    observers: [] as DescribeQuorumResponseReplicaState[],
  };
  if (state.kind !== "leader") {
    partition.errorCode = ErrorCode.NOT_LEADER_OR_FOLLOWER;
    partition.errorMessage = "only the leader describes the quorum";
  } else {
    const { voters, observers } = state.leader.replicas();
    partition.currentVoters = voters.map((progress) => {
      // The leader's own entry is current by definition, as Kafka reports it.
      if (progress.key.id !== core.config.nodeId) return replicaStateOf(progress);
      const logEndOffset = core.persistedEndOffset;
      return {
        ...replicaStateOf(progress),
        logEndOffset,
        lastFetchTimestamp: core.nowMs,
        lastCaughtUpTimestamp: core.nowMs,
      };
    });
    partition.observers = observers
      .filter((progress) => progress.lastFetchTimestamp >= core.nowMs - OBSERVER_SESSION_TIMEOUT_MS)
      .map(replicaStateOf);
  }
  const nodes = core.voters
    .latest()
    .voters()
    .map((voter) => ({
      nodeId: voter.key.id,
      listeners: voter.endpoints.map(({ name, host, port }) => ({ name, host, port })),
    }));
  return {
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    topics: [{ topicName: METADATA_TOPIC_NAME, partitions: [partition] }],
    nodes,
  };
}
