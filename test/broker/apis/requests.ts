/**
 * Request bodies of the API tests, with the fields each test does not care about at values that
 * ask for nothing special. Each builder takes the fields that matter as named options.
 */
import { clientBatch, TOPIC_ID } from "../../replication/fixtures.js";

/** A Produce request for one partition of "orders". */
export function produceRequest(options: {
  readonly acks: number;
  readonly partition?: number;
  readonly timeoutMs?: number;
  readonly records?: Uint8Array;
}) {
  return {
    transactionalId: null,
    acks: options.acks,
    timeoutMs: options.timeoutMs ?? 1000,
    topicData: [
      {
        name: "orders",
        partitionData: [
          {
            index: options.partition ?? 0,
            records: options.records ?? clientBatch([{ timestamp: 1000 }, { timestamp: 2000 }]),
          },
        ],
      },
    ],
  };
}

/** One partition of a Fetch request, of "orders". */
export interface FetchPartition {
  readonly partition: number;
  readonly fetchOffset: number;
  readonly partitionMaxBytes?: number;
  readonly currentLeaderEpoch?: number;
}

/** A sessionless Fetch request of a consumer over partitions of "orders". */
export function fetchRequest(
  partitions: readonly FetchPartition[],
  options: {
    readonly maxWaitMs?: number;
    readonly minBytes?: number;
    readonly maxBytes?: number;
    readonly isolationLevel?: number;
    readonly replicaId?: number;
  } = {},
) {
  return {
    replicaId: options.replicaId ?? -1,
    maxWaitMs: options.maxWaitMs ?? 0,
    minBytes: options.minBytes ?? 1,
    maxBytes: options.maxBytes ?? 1 << 20,
    isolationLevel: options.isolationLevel ?? 0,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [
      {
        topic: "orders",
        topicId: TOPIC_ID,
        partitions: partitions.map((asked) => ({
          partition: asked.partition,
          fetchOffset: asked.fetchOffset,
          partitionMaxBytes: asked.partitionMaxBytes ?? 1 << 20,
          currentLeaderEpoch: asked.currentLeaderEpoch ?? -1,
        })),
      },
    ],
    forgottenTopicsData: [],
    rackId: "",
  };
}

/** A ListOffsets request of a consumer over partitions of "orders". */
export function listOffsetsRequest(
  partitions: readonly {
    readonly partitionIndex: number;
    readonly timestamp: number;
    readonly currentLeaderEpoch?: number;
  }[],
  options: { readonly isolationLevel?: number } = {},
) {
  return {
    replicaId: -1,
    isolationLevel: options.isolationLevel ?? 0,
    topics: [
      {
        name: "orders",
        partitions: partitions.map((asked) => ({
          partitionIndex: asked.partitionIndex,
          timestamp: asked.timestamp,
          currentLeaderEpoch: asked.currentLeaderEpoch ?? -1,
        })),
      },
    ],
  };
}

/** An OffsetForLeaderEpoch request of a consumer for partition 0 of "orders". */
export function offsetForLeaderEpochRequest(asked: {
  readonly leaderEpoch: number;
  readonly currentLeaderEpoch: number;
}) {
  return {
    replicaId: -1,
    topics: [{ topic: "orders", partitions: [{ partition: 0, ...asked }] }],
  };
}
