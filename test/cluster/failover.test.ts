/**
 * Three combined (broker and controller) nodes as real processes on loopback, the
 * real-process failover test: kill -9 the active controller, and a new one is
 * active and a CreateTopics (sent to a surviving broker, which forwards it) succeeds within 3 s;
 * kill -9 a broker that leads partitions, and they get new leaders within
 * `broker.session.timeout.ms` + 1 s. The session timeout is set to 3000 ms (Kafka's default is
 * 9000) so that the test is quicker; the bound is then 4 s. Follower replication does not exist
 * yet, so `replica.lag.time.max.ms` is long enough that no leader shrinks its ISR to itself
 * during the test: leader election is what is tested, at the controller.
 *
 * `controller.quorum.fetch.timeout.ms` is 1000 (Kafka's default is 2000). With the default, a
 * follower waits 2 s before it stands for election; the broker follows the new Raft leader the
 * moment it is elected, so the first CreateTopics after the kill usually succeeds after about
 * 2.05 s. But the two surviving voters' fetches are answered together, so their fetch timeouts
 * can end in the same millisecond: both stand, the votes split, and the next election waits a
 * randomised election timeout (1 to 2 s), which made about 3.8 s in 2 runs of 8. The shorter
 * timeout keeps the 3 s bound in that case too (docs/running.md, "Failover", gives the figures).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTopics, describeQuorum, metadata } from "../../src/protocol/index.js";
import { freePort } from "../clients/sluice-process.js";
import {
  ClusterNode,
  isAddressInUse,
  killAll,
  pollUntil,
  request,
  sluice,
  temporaryDir,
  type Endpoint,
} from "./cluster-process.js";

after(killAll);

const SESSION_TIMEOUT_MS = 3000;
const CONTROLLER_FAILOVER_BOUND_MS = 3000;
const PARTITION_FAILOVER_BOUND_MS = SESSION_TIMEOUT_MS + 1000;
const PARTITIONS = 6;
const TOPIC_CREATED = 0;
const TOPIC_ALREADY_EXISTS = 36;

/** One of the three nodes: its id, its process and its two Kafka listeners. */
interface Member {
  readonly nodeId: number;
  readonly node: ClusterNode;
  readonly client: Endpoint;
  readonly controller: Endpoint;
}

/** Formats and starts three combined nodes on new free ports; retries if a port was taken. */
async function startCluster(): Promise<Member[]> {
  for (let attempt = 1; ; attempt++) {
    const members = await configureCluster(temporaryDir(`failover-${attempt}`));
    try {
      await Promise.all(members.map((member) => member.node.start()));
      return members;
    } catch (error) {
      await Promise.all(members.map((member) => member.node.stop("SIGKILL")));
      if (!isAddressInUse(error) || attempt >= 3) throw error;
    }
  }
}

async function configureCluster(dir: string): Promise<Member[]> {
  const clusterId = (await sluice(["random-uuid"])).trim();
  const members: Member[] = [];
  for (const nodeId of [1, 2, 3]) {
    members.push({
      nodeId,
      node: new ClusterNode(`node-${nodeId}`, join(dir, `node-${nodeId}`)),
      client: { host: "127.0.0.1", port: await freePort() },
      controller: { host: "127.0.0.1", port: await freePort() },
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
      "sluice.http.listener": `127.0.0.1:${await freePort()}`,
      "broker.session.timeout.ms": String(SESSION_TIMEOUT_MS),
      "broker.heartbeat.interval.ms": "500",
      "replica.lag.time.max.ms": "600000",
      "controller.quorum.fetch.timeout.ms": "1000",
    });
    await member.node.format(clusterId);
  }
  return members;
}

/** The unfenced brokers `member` lists in Metadata, with the leaders of `topic`'s partitions. */
async function describeTopic(member: Member, topic: string) {
  const response = await request(
    member.client,
    metadata,
    { topics: [{ name: topic }], allowAutoTopicCreation: false },
    { maxVersion: 12 },
  );
  const found = response.topics.find((candidate) => candidate.name === topic);
  const leaders = new Map((found?.partitions ?? []).map((p) => [p.partitionIndex, p.leaderId]));
  return { brokers: response.brokers.map((broker) => broker.nodeId).sort(), leaders };
}

/** Creates `topic` through `member`'s broker; true once it exists (created now or before). */
async function maybeCreateTopic(member: Member, topic: string, attempt: number): Promise<boolean> {
  const response = await request(
    member.client,
    createTopics,
    {
      topics: [{ name: topic, numPartitions: PARTITIONS, replicationFactor: 3 }],
      timeoutMs: 10_000,
    },
    { maxVersion: 7 },
  );
  const errorCode = response.topics[0]?.errorCode;
  // A retry after an attempt whose answer was lost may find the topic made by that attempt.
  return errorCode === TOPIC_CREATED || (errorCode === TOPIC_ALREADY_EXISTS && attempt > 1);
}

/** The Raft leader (the active controller) as `member`'s controller listener reports it. */
async function activeController(member: Member): Promise<number | undefined> {
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
async function expectBrokers(member: Member, nodeIds: number[]): Promise<void> {
  await pollUntil(
    async () => {
      const { brokers } = await describeTopic(member, "-");
      return brokers.join(",") === nodeIds.join(",") ? true : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 100, what: `brokers ${nodeIds.join(",")} listed` },
  );
}

/** Creates `topic` through `member`, retrying until it succeeds; resolves to the time taken. */
async function createTopicEventually(member: Member, topic: string): Promise<number> {
  let attempt = 0;
  const { elapsedMs } = await pollUntil(
    async () => ((await maybeCreateTopic(member, topic, ++attempt)) ? true : undefined),
    { deadlineMs: 30_000, intervalMs: 50, what: `topic ${topic} created` },
  );
  return elapsedMs;
}

/**
 * Kills -9 a broker that leads partitions of "before" (not the active controller) and resolves
 * to the time until the active controller's node shows new leaders for all of them.
 */
async function killPartitionLeader(members: Member[], survivor: Member): Promise<number> {
  const activeId = await activeController(survivor);
  const { leaders } = await describeTopic(survivor, "before");
  const victim = members.find(
    (member) =>
      member.nodeId !== activeId && [...leaders.values()].some((id) => id === member.nodeId),
  );
  assert.ok(victim !== undefined, `a broker other than ${activeId} leads a partition`);
  const observer = members.find((member) => member !== victim && member.nodeId === activeId);
  assert.ok(observer !== undefined);
  const ledByVictim = [...leaders].filter(([, id]) => id === victim.nodeId).map(([p]) => p);
  await victim.node.stop("SIGKILL");
  const brokerKilledAt = performance.now();
  await pollUntil(
    async () => {
      const now = (await describeTopic(observer, "before")).leaders;
      const moved = ledByVictim.every((partition) => {
        const leader = now.get(partition);
        return leader !== undefined && leader >= 0 && leader !== victim.nodeId;
      });
      return moved ? true : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 100, what: `partitions of broker ${victim.nodeId} moved` },
  );
  return performance.now() - brokerKilledAt;
}

test("the controller and partition leaders fail over within the required deadlines", async (t) => {
  const members = await startCluster();
  const [first] = members;
  assert.ok(first !== undefined);
  await expectBrokers(first, [1, 2, 3]);
  await createTopicEventually(first, "before");
  await pollUntil(
    async () => {
      const { leaders } = await describeTopic(first, "before");
      const led = [...leaders.values()].filter((leader) => leader >= 0);
      return led.length === PARTITIONS ? true : undefined;
    },
    { deadlineMs: 10_000, intervalMs: 100, what: "every partition of before has a leader" },
  );

  // The active controller dies; a survivor forwards a CreateTopics to the next one.
  const { value: controllerId } = await pollUntil(() => activeController(first), {
    deadlineMs: 10_000,
    intervalMs: 100,
    what: "an active controller",
  });
  const controller = members.find((member) => member.nodeId === controllerId);
  assert.ok(controller !== undefined, `controller ${controllerId} is one of the nodes`);
  await controller.node.stop("SIGKILL");
  const killedAt = performance.now();
  const survivors = members.filter((member) => member !== controller);
  const [survivor] = survivors;
  assert.ok(survivor !== undefined);
  await createTopicEventually(survivor, "after-controller-failover");
  const controllerFailoverMs = performance.now() - killedAt;
  const newControllerId = await activeController(survivor);
  assert.ok(newControllerId !== undefined && newControllerId !== controllerId);
  t.diagnostic(`CreateTopics succeeded ${Math.round(controllerFailoverMs)} ms after the kill`);
  assert.ok(
    controllerFailoverMs <= CONTROLLER_FAILOVER_BOUND_MS,
    `a new controller took CreateTopics ${Math.round(controllerFailoverMs)} ms after the kill`,
  );

  // The killed node comes back, so that the quorum survives losing another voter.
  await controller.node.start();
  await expectBrokers(survivor, [1, 2, 3]);

  const partitionFailoverMs = await killPartitionLeader(members, survivor);
  t.diagnostic(`partitions had new leaders ${Math.round(partitionFailoverMs)} ms after the kill`);
  assert.ok(
    partitionFailoverMs <= PARTITION_FAILOVER_BOUND_MS,
    `the partitions got new leaders ${Math.round(partitionFailoverMs)} ms after the kill`,
  );
});
