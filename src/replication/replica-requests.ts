/**
 * The wire form of the requests a follower sends its leader, built for the version negotiated
 * (Kafka's FetchRequest.Builder.forReplica, OffsetsForLeaderEpochRequest and ListOffsetsRequest
 * as a replica sends them), and the Fetch response's partitions read back in domain terms.
 */
import { assert, type BrokerId } from "../common/index.js";
import type {
  FetchRequest,
  FetchResponse,
  ListOffsetsRequest,
  MessageInput,
  OffsetForLeaderEpochRequest,
} from "../protocol/index.js";
import type { TopicPartition } from "../storage/index.js";
import type {
  EpochQuery,
  FetchedPartition,
  FollowerFetchRequest,
} from "./leader-endpoint.driver.js";
import { sessionPartitionKey } from "./fetch-session-handler.js";

/**
 * A follower's Fetch at `apiVersion` (Kafka's FetchRequest.Builder.forReplica): the replica id
 * in the body before v15 and in ReplicaState with the broker epoch from v15; topics by name
 * before v13 and by id from v13; sessions from v7; last fetched epochs from v12.
 */
export function fetchRequestBody(
  request: FollowerFetchRequest,
  apiVersion: number,
): MessageInput<FetchRequest> {
  const { session } = request;
  // Before v7 there are no sessions: every request is full and forgets nothing.
  const hasSessions = apiVersion >= 7;
  const toSend = hasSessions ? session.toSend : [...session.sessionPartitions.values()];
  const toForget = hasSessions ? session.toForget : [];
  const topicIds = new Map<string, string>();
  for (const partition of [...toSend, ...toForget]) {
    topicIds.set(partition.topicName, partition.topicId);
  }
  const byTopic = new Map<string, object[]>();
  for (const partition of toSend) {
    const partitions = byTopic.get(partition.topicName) ?? [];
    partitions.push({
      partition: partition.partition,
      ...(apiVersion >= 9 ? { currentLeaderEpoch: partition.currentLeaderEpoch } : {}),
      fetchOffset: partition.fetchOffset,
      ...(apiVersion >= 12 ? { lastFetchedEpoch: partition.lastFetchedEpoch } : {}),
      ...(apiVersion >= 5 ? { logStartOffset: partition.logStartOffset } : {}),
      partitionMaxBytes: partition.partitionMaxBytes,
    });
    byTopic.set(partition.topicName, partitions);
  }
  const forgotten = new Map<string, number[]>();
  for (const partition of toForget) {
    forgotten.set(partition.topicName, [
      ...(forgotten.get(partition.topicName) ?? []),
      partition.partition,
    ]);
  }
  const topicRef = (name: string) => {
    const topicId = topicIds.get(name);
    assert(topicId !== undefined, "every partition sent or forgotten carries its topic id");
    return { topic: name, topicId };
  };
  return {
    ...(apiVersion >= 15
      ? { replicaState: { replicaId: request.replicaId, replicaEpoch: request.brokerEpoch } }
      : { replicaId: request.replicaId }),
    maxWaitMs: request.maxWaitMs,
    minBytes: request.minBytes,
    ...(apiVersion >= 3 ? { maxBytes: request.maxBytes } : {}),
    ...(apiVersion >= 4 ? { isolationLevel: 0 } : {}),
    ...(hasSessions ? { sessionId: session.sessionId, sessionEpoch: session.sessionEpoch } : {}),
    topics: [...byTopic].map(([name, partitions]) => ({ ...topicRef(name), partitions })),
    ...(hasSessions
      ? {
          forgottenTopicsData: [...forgotten].map(([name, partitions]) => ({
            ...topicRef(name),
            partitions,
          })),
        }
      : {}),
    ...(apiVersion >= 11 ? { rackId: request.rackId } : {}),
  };
}

/** A replica's ListOffsets at `apiVersion`: the current leader epoch from v4 (KIP-320). */
export function replicaListOffsetsBody(
  query: {
    readonly replicaId: BrokerId;
    readonly topicPartition: TopicPartition;
    readonly currentLeaderEpoch: number;
    readonly timestamp: number;
  },
  apiVersion: number,
): MessageInput<ListOffsetsRequest> {
  const { topicPartition } = query;
  return {
    replicaId: query.replicaId,
    ...(apiVersion >= 2 ? { isolationLevel: 0 } : {}),
    topics: [
      {
        name: topicPartition.topic,
        partitions: [
          {
            partitionIndex: topicPartition.partition,
            ...(apiVersion >= 4 ? { currentLeaderEpoch: query.currentLeaderEpoch } : {}),
            timestamp: query.timestamp,
          },
        ],
      },
    ],
  };
}

/** A follower's OffsetsForLeaderEpoch at `apiVersion`: the replica id from v3. */
export function epochRequestBody(
  queries: readonly EpochQuery[],
  replicaId: BrokerId,
  apiVersion: number,
): MessageInput<OffsetForLeaderEpochRequest> {
  const byTopic = new Map<string, object[]>();
  for (const query of queries) {
    const partitions = byTopic.get(query.topicPartition.topic) ?? [];
    partitions.push({
      partition: query.topicPartition.partition,
      ...(apiVersion >= 2 ? { currentLeaderEpoch: query.currentLeaderEpoch } : {}),
      leaderEpoch: query.leaderEpoch,
    });
    byTopic.set(query.topicPartition.topic, partitions);
  }
  return {
    ...(apiVersion >= 3 ? { replicaId } : {}),
    topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
  };
}

/** The response's partitions with their topics named, the names taken from the request. */
export function fetchedPartitions(
  response: FetchResponse,
  request: FollowerFetchRequest,
): FetchedPartition[] {
  const names = new Map<string, string>();
  for (const partition of request.session.sessionPartitions.values()) {
    names.set(partition.topicId, partition.topicName);
  }
  const fetched: FetchedPartition[] = [];
  for (const topic of response.responses) {
    const name = topic.topic !== "" ? topic.topic : names.get(topic.topicId);
    if (name === undefined) continue;
    for (const partition of topic.partitions) {
      const diverging = partition.divergingEpoch;
      const topicPartition = { topic: name, partition: partition.partitionIndex };
      fetched.push({
        key: sessionPartitionKey({ topicName: name, partition: partition.partitionIndex }),
        topicPartition,
        errorCode: partition.errorCode,
        highWatermark: partition.highWatermark,
        logStartOffset: partition.logStartOffset,
        divergingEpoch: diverging.epoch >= 0 ? diverging : undefined,
        records: partition.records ?? new Uint8Array(0),
      });
    }
  }
  return fetched;
}
