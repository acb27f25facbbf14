/**
 * Three combined (broker and controller) nodes as real processes on loopback, for the
 * multi-node tests: each on its own free ports and data dir, formatted into one cluster and
 * started; requests go out over the project's own client, and clients (kcat, kafkajs,
 * @platformatic/kafka) get the bootstrap list. Every process is killed by `killAll` (from
 * cluster-process.ts), which each test file calls in `after`.
 */
import { join } from "node:path";
import assert from "node:assert/strict";
import {
  createTopics,
  describeQuorum,
  findCoordinator,
  metadata,
  type CreateTopicsRequest,
  type MessageInput,
} from "../../src/protocol/index.js";
import { freePort } from "../clients/sluice-process.js";
import {
  ClusterNode,
  isAddressInUse,
  pollUntil,
  request,
  sluice,
  temporaryDir,
  type Endpoint,
} from "./cluster-process.js";

/**
 * Settings that make a dead or frozen node noticed within seconds: a 3000 ms session timeout
 * with heartbeats every 500 ms, and `controller.quorum.fetch.timeout.ms` 1000 (see
 * failover.test.ts for why the Raft timeout matters).
 */
export const QUICK_FAILURE_DETECTION = {
  "broker.session.timeout.ms": "3000",
  "broker.heartbeat.interval.ms": "500",
  "controller.quorum.fetch.timeout.ms": "1000",
} as const;

/** One of the three nodes: its id, its process, its two Kafka listeners and its HTTP endpoint. */
export interface Member {
  readonly nodeId: number;
  readonly node: ClusterNode;
  readonly client: Endpoint;
  readonly controller: Endpoint;
  readonly http: Endpoint;
}

/** One partition as Metadata describes it. */
export interface PartitionView {
  readonly errorCode: number;
  readonly leader: number;
  readonly leaderEpoch: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
}

/** Settings of one node (by id, with every node's ports) on top of those every node gets. */
type NodeSettings = (id: number, node: ClusterNode, all: readonly Member[]) => Settings;
type Settings = Readonly<Record<string, string>>;

/**
 * Formats (with `formatArgs` added to `sluice format`) and starts three combined nodes on new
 * free ports with `settings` (and each node's `nodeSettings`) on top of the defaults every node
 * gets; retries when a port picked as free was taken meanwhile.
 */
export async function startThreeNodes(
  name: string,
  settings: Readonly<Record<string, string>>,
  nodeSettings: NodeSettings = () => ({}),
  formatArgs: readonly string[] = [],
): Promise<Member[]> {
  for (let attempt = 1; ; attempt++) {
    const dir = temporaryDir(`${name}-${attempt}`);
    const members = await configure(dir, { settings, nodeSettings, formatArgs });
    try {
      await Promise.all(members.map((member) => member.node.start()));
      return members;
    } catch (error) {
      await Promise.all(members.map((member) => member.node.stop("SIGKILL")));
      if (!isAddressInUse(error) || attempt >= 3) throw error;
    }
  }
}

async function configure(
  dir: string,
  options: {
    readonly settings: Readonly<Record<string, string>>;
    readonly nodeSettings: NodeSettings;
    readonly formatArgs: readonly string[];
  },
): Promise<Member[]> {
  const { settings, nodeSettings, formatArgs } = options;
  const clusterId = (await sluice(["random-uuid"])).trim();
  const members: Member[] = [];
  for (const nodeId of [1, 2, 3]) {
    members.push({
      nodeId,
      node: new ClusterNode(`node-${nodeId}`, join(dir, `node-${nodeId}`)),
      client: { host: "127.0.0.1", port: await freePort() },
      controller: { host: "127.0.0.1", port: await freePort() },
      http: { host: "127.0.0.1", port: await freePort() },
    });
  }
  const voters = members.map((m) => `${m.nodeId}@127.0.0.1:${m.controller.port}`).join(",");
  for (const member of members) {
    member.node.writeConfig({
      "process.roles": "broker,controller",
      "node.id": String(member.nodeId),
      listeners: [
        `PLAINTEXT://127.0.0.1:${member.client.port}`,
        `CONTROLLER://127.0.0.1:${member.controller.port}`,
      ].join(","),
      "advertised.listeners": `PLAINTEXT://127.0.0.1:${member.client.port}`,
      "controller.listener.names": "CONTROLLER",
      "controller.quorum.voters": voters,
      "sluice.http.listener": `${member.http.host}:${member.http.port}`,
      ...settings,
      ...nodeSettings(member.nodeId, member.node, members),
    });
    await member.node.format(clusterId, formatArgs);
  }
  return members;
}

/** `host:port,...` of every node's client listener. */
export function bootstrapServers(members: readonly Member[]): string {
  return members.map((member) => `${member.client.host}:${member.client.port}`).join(",");
}

/** The unfenced brokers `member` lists in Metadata, and `topic`'s error and partitions. */
export async function describeTopic(member: Member, topic: string) {
  const response = await request(
    member.client,
    metadata,
    { topics: [{ name: topic }], allowAutoTopicCreation: false },
    { maxVersion: 12 },
  );
  const found = response.topics.find((candidate) => candidate.name === topic);
  const partitions = new Map<number, PartitionView>(
    (found?.partitions ?? []).map((partition) => [
      partition.partitionIndex,
      {
        errorCode: partition.errorCode,
        leader: partition.leaderId,
        leaderEpoch: partition.leaderEpoch,
        replicas: partition.replicaNodes,
        isr: partition.isrNodes,
      },
    ]),
  );
  return {
    brokers: response.brokers.map((broker) => broker.nodeId).sort(),
    errorCode: found?.errorCode ?? -1,
    partitions,
  };
}

/** The Raft leader (the active controller) as `member`'s controller listener reports it. */
export async function activeController(member: Member): Promise<number | undefined> {
  const response = await request(
    member.controller,
    describeQuorum,
    { topics: [{ topicName: "__cluster_metadata", partitions: [{ partitionIndex: 0 }] }] },
    { maxVersion: 2 },
  );
  const leaderId = response.topics[0]?.partitions[0]?.leaderId;
  return leaderId === undefined || leaderId < 0 ? undefined : leaderId;
}

/** Waits until `member` lists exactly the brokers `nodeIds` as unfenced. */
export async function expectBrokers(member: Member, nodeIds: readonly number[]): Promise<void> {
  await pollUntil(
    async () => {
      const { brokers } = await describeTopic(member, "-");
      return brokers.join(",") === nodeIds.join(",") ? true : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 100, what: `brokers ${nodeIds.join(",")} listed` },
  );
}

/**
 * Waits until `check` holds for `topic`'s partitions as a running member describes them, and
 * resolves to them; `what` names the wait in the failure message.
 */
export async function awaitPartitions(
  members: readonly Member[],
  topic: string,
  check: (partitions: ReadonlyMap<number, PartitionView>) => boolean,
  what: string,
  deadlineMs = 30_000,
): Promise<ReadonlyMap<number, PartitionView>> {
  const { value } = await pollUntil(
    async () => {
      const running = members.find((member) => member.node.isRunning);
      if (running === undefined) return undefined;
      const { partitions } = await describeTopic(running, topic);
      return partitions.size > 0 && check(partitions) ? partitions : undefined;
    },
    { deadlineMs, intervalMs: 100, what },
  );
  return value;
}

/**
 * Three nodes started with `settings`, all registered, and `topic` created with one partition,
 * replication factor 3 and min.insync.replicas 2, once its ISR holds all three.
 */
export async function startWithFullIsr(
  name: string,
  settings: Readonly<Record<string, string>>,
  topic: string,
): Promise<{ members: Member[]; full: ReadonlyMap<number, PartitionView> }> {
  const members = await startThreeNodes(name, settings);
  const [first] = members;
  assert.ok(first !== undefined);
  await expectBrokers(first, [1, 2, 3]);
  await createReplicatedTopic(first, { topic, partitions: 1, minInsyncReplicas: 2 });
  const isFull = (partitions: ReadonlyMap<number, PartitionView>) =>
    partitions.get(0)?.isr.length === 3;
  const full = await awaitPartitions(members, topic, isFull, "a full ISR");
  return { members, full };
}

/** Creates `topic` with replication factor 3 and `min.insync.replicas` through `member`. */
export async function createReplicatedTopic(
  member: Member,
  options: {
    readonly topic: string;
    readonly partitions: number;
    readonly minInsyncReplicas: number;
  },
): Promise<void> {
  await createTopic(member, {
    name: options.topic,
    numPartitions: options.partitions,
    replicationFactor: 3,
    configs: [{ name: "min.insync.replicas", value: String(options.minInsyncReplicas) }],
  });
}

async function createTopic(
  member: Member,
  topic: MessageInput<CreateTopicsRequest["topics"][number]>,
): Promise<void> {
  const response = await request(
    member.client,
    createTopics,
    { topics: [topic], timeoutMs: 10_000 },
    { maxVersion: 7 },
  );
  assert.equal(response.topics[0]?.errorCode, 0, JSON.stringify(response.topics[0]));
}

/** Creates `topic` through `member` with partition i on the brokers `assignments[i]` names. */
export async function createAssignedTopic(
  member: Member,
  topic: string,
  assignments: readonly (readonly number[])[],
): Promise<void> {
  await createTopic(member, {
    name: topic,
    numPartitions: -1,
    replicationFactor: -1,
    assignments: assignments.map((brokerIds, partitionIndex) => ({
      partitionIndex,
      brokerIds: [...brokerIds],
    })),
  });
}

/**
 * The node coordinating `key` (a group, key type 0, or a transactional id, key type 1), as a
 * running member answers FindCoordinator; with `avoiding`, waits until the answer is another
 * node, since the coordinator partition's leadership moves in its own metadata record, which a
 * member may apply after the others.
 */
export async function coordinatorOf(
  members: readonly Member[],
  asked: { readonly key: string; readonly keyType: 0 | 1; readonly avoiding?: number },
): Promise<number> {
  const { value } = await pollUntil(
    async () => {
      const member = members.find((each) => each.node.isRunning);
      if (member === undefined) return undefined;
      const response = await request(
        member.client,
        findCoordinator,
        { key: asked.key, keyType: asked.keyType },
        { maxVersion: 3 },
      );
      const found = response.errorCode === 0 ? response.nodeId : undefined;
      return found === asked.avoiding ? undefined : found;
    },
    { deadlineMs: 60_000, intervalMs: 200, what: `the coordinator of ${asked.key}` },
  );
  return value;
}
