/**
 * The embedded cluster's admin handle: topics created, described, listed and deleted over the
 * project's own protocol client, as any Kafka admin client would (CreateTopics and DeleteTopics
 * are forwarded by the broker to the active controller). Each call goes to a running broker and
 * moves on to the next one while a broker does not answer or answers with a retriable error, until
 * its deadline. `createTopic` and `deleteTopic` resolve once every running broker shows the change.
 */
import { ErrorCode, errorName, isRetriable } from "../../common/index.js";
import { ClientPool, describeFailure, type ClientPorts } from "../../client/index.js";
import type { Address } from "../../ports/index.js";
import {
  createTopics,
  deleteTopics,
  metadata,
  type ApiCodec,
  type MessageInput,
  type MetadataResponse,
} from "../../protocol/index.js";
import { waitFor } from "./wait-for.js";

/** How long an admin call may go on retrying before it fails. */
const ADMIN_DEADLINE_MS = 30_000;

export interface NewTopic {
  readonly name: string;
  /** Default: the cluster's num.partitions. */
  readonly partitions?: number;
  /** Default: the cluster's default.replication.factor. */
  readonly replicationFactor?: number;
  /** Topic configs by Kafka name (`cleanup.policy`, `min.insync.replicas`, ...). */
  readonly configs?: Readonly<Record<string, string | number | boolean>>;
}

export interface PartitionDescription {
  readonly partition: number;
  /** The leader's node id, -1 while there is none. */
  readonly leader: number;
  readonly leaderEpoch: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
  readonly offlineReplicas: readonly number[];
}

export interface TopicDescription {
  readonly name: string;
  readonly topicId: string;
  readonly isInternal: boolean;
  readonly partitions: readonly PartitionDescription[];
}

/** An admin call the cluster refused: the Kafka error's name and message. */
export class ClusterAdminError extends Error {
  override readonly name = "ClusterAdminError";
  constructor(
    message: string,
    /** The Kafka error code. */
    readonly errorCode: number,
  ) {
    super(message);
  }
}

export class ClusterAdmin {
  private readonly pool: ClientPool;

  constructor(
    private readonly ports: ClientPorts,
    /** The client addresses of the brokers that run now. */
    private readonly brokers: () => readonly Address[],
  ) {
    this.pool = new ClientPool(ports, { requestTimeoutMs: 10_000 });
  }

  /** Creates a topic and waits until every running broker knows a leader of each partition. */
  async createTopic(topic: NewTopic): Promise<TopicDescription> {
    const configs = Object.entries(topic.configs ?? {}).map(([name, value]) => ({
      name,
      value: String(value),
    }));
    const response = await this.call(
      createTopics,
      {
        topics: [
          {
            name: topic.name,
            numPartitions: topic.partitions ?? -1,
            replicationFactor: topic.replicationFactor ?? -1,
            configs,
          },
        ],
        timeoutMs: 10_000,
      },
      7,
      (body) => body.topics[0]?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR,
    );
    const message = response.topics[0]?.errorMessage ?? null;
    this.throwUnlessNone(response.topics[0]?.errorCode ?? ErrorCode.NONE, message);
    const views = await this.awaitEveryBroker(
      topic.name,
      "has a leader on every partition",
      (view) =>
        view !== undefined && view.partitions.every((partition) => partition.leader >= 0)
          ? view
          : undefined,
    );
    return views[0];
  }

  /** Deletes a topic and waits until no running broker lists it. */
  async deleteTopic(name: string): Promise<void> {
    const response = await this.call(
      deleteTopics,
      { topicNames: [name], topics: [{ name }], timeoutMs: 10_000 },
      6,
      (body) => body.responses[0]?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR,
    );
    const result = response.responses[0];
    this.throwUnlessNone(result?.errorCode ?? ErrorCode.NONE, result?.errorMessage ?? null);
    await this.awaitEveryBroker(name, "is deleted", (view) =>
      view === undefined ? true : undefined,
    );
  }

  /** The names of the topics, internal ones included, sorted. */
  async listTopics(): Promise<string[]> {
    const response = await this.metadataOf(null, undefined);
    return response.topics.flatMap((topic) => (topic.name === null ? [] : [topic.name])).sort();
  }

  /**
   * `name` as a running broker (or the one at `via`) describes it; throws
   * UNKNOWN_TOPIC_OR_PARTITION for none.
   */
  async describeTopic(name: string, via?: Address): Promise<TopicDescription> {
    const view = topicOf(await this.metadataOf([name], via), name);
    if (view !== undefined) return view;
    throw new ClusterAdminError(
      `UNKNOWN_TOPIC_OR_PARTITION: no topic ${name}`,
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    );
  }

  /** The leader of one partition now, or undefined while it has none. */
  async leaderOf(topic: string, partition: number): Promise<number | undefined> {
    const found = (await this.describeTopic(topic)).partitions.find(
      (each) => each.partition === partition,
    );
    return found === undefined || found.leader < 0 ? undefined : found.leader;
  }

  /** The ids of the unfenced brokers `address` lists, sorted. */
  async brokersListedBy(address: Address): Promise<number[]> {
    const response = await this.metadataOf([], address);
    return response.brokers.map((broker) => broker.nodeId).sort((a, b) => a - b);
  }

  close(): void {
    this.pool.close();
  }

  private async metadataOf(
    topics: readonly string[] | null,
    address: Address | undefined,
  ): Promise<MetadataResponse> {
    const body = {
      topics: topics === null ? null : topics.map((name) => ({ name })),
      allowAutoTopicCreation: false,
    };
    if (address === undefined) return this.call(metadata, body, 12, () => ErrorCode.NONE);
    const result = await this.pool.send(address, metadata, body, { maxVersion: 12 });
    if (result.kind !== "response") throw new Error(describeFailure(result));
    return result.body;
  }

  /** Waits until `check` holds for `name` as every running broker describes it. */
  private async awaitEveryBroker<T>(
    name: string,
    what: string,
    check: (view: TopicDescription | undefined) => T | undefined,
  ): Promise<[T, ...T[]]> {
    return waitFor(this.ports, {
      what: `topic ${name} ${what}`,
      deadlineMs: ADMIN_DEADLINE_MS,
      probe: async () => {
        const seen: T[] = [];
        for (const address of this.brokers()) {
          const value = check(topicOf(await this.metadataOf([name], address), name));
          if (value === undefined) return undefined;
          seen.push(value);
        }
        const [first, ...rest] = seen;
        return first === undefined ? undefined : [first, ...rest];
      },
    });
  }

  /**
   * Sends `body` to a running broker until one answers with an error code (read by `errorOf`)
   * that is not retriable; resolves to that answer.
   */
  private async call<Request extends object, Response extends object>(
    api: ApiCodec<Request, Response>,
    body: MessageInput<Request>,
    maxVersion: number,
    errorOf: (response: Response) => number,
  ): Promise<Response> {
    let attempt = 0;
    return waitFor(this.ports, {
      what: `an answer from a broker of the cluster`,
      deadlineMs: ADMIN_DEADLINE_MS,
      probe: async () => {
        const brokers = this.brokers();
        const address = brokers[attempt++ % Math.max(1, brokers.length)];
        if (address === undefined) throw new Error("no broker of the cluster runs");
        const result = await this.pool.send(address, api, body, { maxVersion });
        if (result.kind !== "response") throw new Error(describeFailure(result));
        const errorCode = errorOf(result.body);
        if (errorCode !== ErrorCode.NONE && isRetriable(errorCode)) {
          throw new Error(`${errorName(errorCode)} from ${address.host}:${address.port}`);
        }
        return result.body;
      },
    });
  }

  private throwUnlessNone(errorCode: number, message: string | null): void {
    if (errorCode === ErrorCode.NONE) return;
    const text = message === null || message === "" ? "" : `: ${message}`;
    throw new ClusterAdminError(`${errorName(errorCode)}${text}`, errorCode);
  }
}

function topicOf(response: MetadataResponse, name: string): TopicDescription | undefined {
  const topic = response.topics.find((each) => each.name === name);
  if (topic === undefined || topic.errorCode !== ErrorCode.NONE) return undefined;
  return {
    name,
    topicId: topic.topicId,
    isInternal: topic.isInternal,
    partitions: topic.partitions
      .map((partition) => ({
        partition: partition.partitionIndex,
        leader: partition.leaderId,
        leaderEpoch: partition.leaderEpoch,
        replicas: partition.replicaNodes,
        isr: partition.isrNodes,
        offlineReplicas: partition.offlineReplicas,
      }))
      .sort((a, b) => a.partition - b.partition),
  };
}
