/**
 * How a follower reaches a partition leader (Kafka's LeaderEndPoint and RemoteLeaderEndPoint):
 * Fetch as a replica, OffsetsForLeaderEpoch and ListOffsets, each built for the version the
 * connection negotiated and sent through the project's protocol client to the leader's
 * inter-broker listener. The fetcher speaks in domain terms; this file owns the wire shapes.
 */
import { ErrorCode, type BrokerId } from "../common/index.js";
import { describeFailure, type ClientPool, type ClientResult } from "../client/index.js";
import type { Logger } from "../ports/index.js";
import {
  apiDefinition,
  fetch as fetchApi,
  listOffsets as listOffsetsApi,
  offsetForLeaderEpoch as offsetForLeaderEpochApi,
} from "../protocol/index.js";
import type { TopicPartition } from "../storage/index.js";
import type { LeaderEpochEnd } from "./fetch-state.js";
import { sessionPartitionKey, type SessionRequest } from "./fetch-session-handler.js";
import {
  epochRequestBody,
  fetchedPartitions,
  fetchRequestBody,
  replicaListOffsetsBody,
} from "./replica-requests.js";

/** One Fetch a follower sends, in domain terms. */
export interface FollowerFetchRequest {
  readonly replicaId: BrokerId;
  /** This broker's epoch from its registration (Fetch v15+ ReplicaState, KIP-903). */
  readonly brokerEpoch: number;
  readonly maxWaitMs: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly rackId: string;
  readonly session: SessionRequest;
}

/** One partition of a Fetch response, its topic named. */
export interface FetchedPartition {
  readonly key: string;
  readonly topicPartition: TopicPartition;
  readonly errorCode: number;
  readonly highWatermark: number;
  readonly logStartOffset: number;
  /** Set when the leader found the follower's log diverging (Fetch v12+). */
  readonly divergingEpoch: LeaderEpochEnd | undefined;
  readonly records: Uint8Array;
}

export type FollowerFetchResult =
  | {
      readonly kind: "response";
      readonly errorCode: number;
      readonly sessionId: number;
      readonly partitions: readonly FetchedPartition[];
    }
  | { readonly kind: "failed"; readonly message: string };

/** One partition whose epoch end a follower asks for. */
export interface EpochQuery {
  readonly topicPartition: TopicPartition;
  readonly currentLeaderEpoch: number;
  readonly leaderEpoch: number;
}

export type EpochQueryResult =
  | { readonly kind: "ok"; readonly errorCode: number; readonly end: LeaderEpochEnd }
  | { readonly kind: "failed"; readonly message: string };

export type OffsetQueryResult =
  | { readonly kind: "ok"; readonly errorCode: number; readonly offset: number }
  | { readonly kind: "failed"; readonly message: string };

/** What a follower's fetcher needs from its leader. */
export interface LeaderEndpoint {
  fetch(request: FollowerFetchRequest): Promise<FollowerFetchResult>;
  /** Each query's answer, by `sessionPartitionKey`-style key `<topic>/<partition>`. */
  endOffsetsForEpochs(
    queries: readonly EpochQuery[],
  ): Promise<ReadonlyMap<string, EpochQueryResult>>;
  /** ListOffsets as a replica: -1 for the log end offset, -2 for the log start offset. */
  fetchOffset(
    topicPartition: TopicPartition,
    options: { readonly currentLeaderEpoch: number; readonly timestamp: -1 | -2 },
  ): Promise<OffsetQueryResult>;
}

/** The key a partition has in the fetcher's maps. */
export function partitionKey(topicPartition: TopicPartition): string {
  return sessionPartitionKey({
    topicName: topicPartition.topic,
    partition: topicPartition.partition,
  });
}

/** A leader reached through the client pool, which knows the leader's address by its id. */
export class RemoteLeaderEndpoint implements LeaderEndpoint {
  constructor(
    private readonly pool: ClientPool,
    private readonly leaderId: BrokerId,
    private readonly options: {
      readonly replicaId: BrokerId;
      /** `replica.socket.timeout.ms`: one request's longest wait. */
      readonly requestTimeoutMs: number;
      readonly logger: Logger;
    },
  ) {}

  async fetch(request: FollowerFetchRequest): Promise<FollowerFetchResult> {
    const result = await this.pool.send(
      this.leaderId,
      fetchApi,
      (apiVersion) => fetchRequestBody(request, apiVersion),
      { timeoutMs: this.options.requestTimeoutMs + request.maxWaitMs },
    );
    if (result.kind !== "response") return { kind: "failed", message: this.failure(result) };
    return {
      kind: "response",
      errorCode: result.body.errorCode,
      sessionId: result.body.sessionId,
      partitions: fetchedPartitions(result.body, request),
    };
  }

  async endOffsetsForEpochs(
    queries: readonly EpochQuery[],
  ): Promise<ReadonlyMap<string, EpochQueryResult>> {
    const answers = new Map<string, EpochQueryResult>();
    const result = await this.pool.send(
      this.leaderId,
      offsetForLeaderEpochApi,
      (apiVersion) => epochRequestBody(queries, this.options.replicaId, apiVersion),
      { timeoutMs: this.options.requestTimeoutMs },
    );
    if (result.kind !== "response") {
      const failed = { kind: "failed", message: this.failure(result) } as const;
      for (const query of queries) answers.set(partitionKey(query.topicPartition), failed);
      return answers;
    }
    for (const topic of result.body.topics) {
      for (const partition of topic.partitions) {
        const end = { epoch: partition.leaderEpoch, endOffset: partition.endOffset };
        answers.set(partitionKey({ topic: topic.topic, partition: partition.partition }), {
          kind: "ok",
          errorCode: partition.errorCode,
          end,
        });
      }
    }
    return answers;
  }

  async fetchOffset(
    topicPartition: TopicPartition,
    options: { readonly currentLeaderEpoch: number; readonly timestamp: -1 | -2 },
  ): Promise<OffsetQueryResult> {
    const { replicaId } = this.options;
    const body = (apiVersion: number) =>
      replicaListOffsetsBody({ replicaId, topicPartition, ...options }, apiVersion);
    const result = await this.pool.send(this.leaderId, listOffsetsApi, body, {
      // Version 0 answers offset lists, not an offset; Kafka's replicas use v1+.
      minVersion: 1,
      timeoutMs: this.options.requestTimeoutMs,
    });
    if (result.kind !== "response") return { kind: "failed", message: this.failure(result) };
    const partition = result.body.topics
      .find((topic) => topic.name === topicPartition.topic)
      ?.partitions.find((candidate) => candidate.partitionIndex === topicPartition.partition);
    if (partition === undefined) {
      return { kind: "ok", errorCode: ErrorCode.UNKNOWN_SERVER_ERROR, offset: -1 };
    }
    return { kind: "ok", errorCode: partition.errorCode, offset: partition.offset };
  }

  private failure(result: Exclude<ClientResult<object>, { kind: "response" }>): string {
    if (result.kind === "encodeError") {
      // This broker built the body for the negotiated version: not encoding is a bug.
      this.options.logger.error("a request to a partition leader does not encode", {
        api: apiDefinition(result.apiKey)?.name ?? String(result.apiKey),
        apiVersion: result.apiVersion,
        leaderId: this.leaderId,
        error: result.error.message,
      });
    }
    return describeFailure(result);
  }
}
