/**
 * Replication throttles (KIP-73) with real processes: a partition on brokers [1, 2] holding
 * about 300 KB is reassigned to [1, 2, 3] with the leader's and the new follower's throttles at
 * 1 byte/s, set with IncrementalAlterConfigs as kafka-reassign-partitions sets them. Broker 3
 * gets at most one fetch's worth (replica.fetch.max.bytes) per rate window while the leader
 * answers fetch after fetch; once the rates are deleted it copies the rest, joins the ISR and
 * the reassignment completes with identical replicas.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Kafka, logLevel } from "kafkajs";
import {
  alterPartitionReassignments,
  describeConfigs,
  describeLogDirs,
  incrementalAlterConfigs,
} from "../../src/protocol/index.js";
import { killAll, pollUntil, request } from "./cluster-process.js";
import { awaitIdenticalReplicas } from "./read-back.js";
import {
  awaitPartitions,
  bootstrapServers,
  createAssignedTopic,
  expectBrokers,
  startThreeNodes,
  type Member,
} from "./three-nodes.js";

after(killAll);

const TOPIC = "throttled";
const TOPIC_RESOURCE = 2;
const BROKER_RESOURCE = 4;
const SET = 0;
const DELETE = 1;
const FETCH_MAX_BYTES = 8192;
/** replication.quota.window.num times replication.quota.window.size.seconds, in ms. */
const RATE_SPAN_MS = 11_000;
const RATES = ["leader.replication.throttled.rate", "follower.replication.throttled.rate"];

test(
  "a throttled reassignment copies only what the rate lets through until the throttle goes",
  { timeout: 300_000 },
  async () => {
    const members = await startThreeNodes("replication-throttle", {
      "replica.fetch.max.bytes": String(FETCH_MAX_BYTES),
      "replica.fetch.wait.max.ms": "100",
    });
    const [first, , third] = members;
    assert.ok(first !== undefined && third !== undefined);
    await expectBrokers(first, [1, 2, 3]);
    await createAssignedTopic(first, TOPIC, [[1, 2]]);
    await awaitPartitions(members, TOPIC, (p) => p.get(0)?.isr.length === 2, "ISR [1,2]");
    await produce(bootstrapServers(members));
    const totalBytes = await copySize(first);
    await awaitCopySize(members[1] as Member, (size) => size === totalBytes, "broker 2 caught up");

    await alterConfigs(first, [
      { resourceType: BROKER_RESOURCE, resourceName: "", configs: RATES.map((name) => set(name)) },
      {
        resourceType: TOPIC_RESOURCE,
        resourceName: TOPIC,
        configs: [
          set("leader.replication.throttled.replicas", "0:1,0:2"),
          set("follower.replication.throttled.replicas", "0:3"),
        ],
      },
    ]);
    // Every broker throttles before broker 3 is asked to fetch anything.
    for (const member of members) await awaitThrottleVisible(member);
    const fetchesBefore = await fetchRequestsServed(first);
    const started = performance.now();
    await reassign(first, [1, 2, 3]);
    await awaitCopySize(third, (size) => size > 0, "broker 3's first throttled fetch");
    // Broker 2 fetches every 100 ms: the leader answers many rounds while broker 3 waits.
    await pollUntil(
      async () => ((await fetchRequestsServed(first)) >= fetchesBefore + 60 ? true : undefined),
      { deadlineMs: 60_000, intervalMs: 200, what: "the leader answered 60 more fetches" },
    );
    const copied = await copySize(third);
    const elapsedMs = performance.now() - started;
    // One fetch's worth may pass each time the rate's span empties, and one at the start.
    const allowed = FETCH_MAX_BYTES * (2 + Math.floor(elapsedMs / RATE_SPAN_MS));
    assert.ok(copied <= allowed, `broker 3 copied ${copied} of ${totalBytes}; at most ${allowed}`);
    assert.ok(copied < totalBytes);
    const during = await awaitPartitions(members, TOPIC, () => true, "the partition");
    assert.deepEqual(during.get(0)?.isr, [1, 2], "broker 3 has not caught up");

    await alterConfigs(first, [
      {
        resourceType: BROKER_RESOURCE,
        resourceName: "",
        configs: RATES.map((name) => ({ name, configOperation: DELETE, value: null })),
      },
    ]);
    await awaitPartitions(
      members,
      TOPIC,
      (p) => p.get(0)?.replicas.join() === "1,2,3" && p.get(0)?.isr.length === 3,
      "the partition on [1,2,3] with all three in sync",
      60_000,
    );
    await awaitCopySize(third, (size) => size === totalBytes, "broker 3 holds the whole log");
    await awaitIdenticalReplicas(members, { topic: TOPIC, partition: 0 });
  },
);

function set(name: string, value = "1") {
  return { name, configOperation: SET, value };
}

/** Writes 60 batches of 50 records of 100 bytes, each acknowledged by both replicas. */
async function produce(bootstrap: string): Promise<void> {
  const kafka = new Kafka({ brokers: bootstrap.split(","), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    for (let batch = 0; batch < 60; batch++) {
      const messages = Array.from({ length: 50 }, (_unused, index) => ({
        value: `${batch}-${index}-`.padEnd(100, "x"),
      }));
      await producer.send({ topic: TOPIC, acks: -1, messages });
    }
  } finally {
    await producer.disconnect();
  }
}

async function alterConfigs(
  member: Member,
  resources: {
    resourceType: number;
    resourceName: string;
    configs: { name: string; configOperation: number; value: string | null }[];
  }[],
): Promise<void> {
  const response = await request(
    member.client,
    incrementalAlterConfigs,
    { resources, validateOnly: false },
    { maxVersion: 1 },
  );
  for (const answer of response.responses)
    assert.equal(answer.errorCode, 0, answer.errorMessage ?? "");
}

/** Waits until `member` serves the topic's follower throttle (its image has the configs). */
async function awaitThrottleVisible(member: Member): Promise<void> {
  await pollUntil(
    async () => {
      const response = await request(
        member.client,
        describeConfigs,
        {
          resources: [
            { resourceType: TOPIC_RESOURCE, resourceName: TOPIC, configurationKeys: null },
          ],
          includeSynonyms: false,
          includeDocumentation: false,
        },
        { maxVersion: 4 },
      );
      const configs = response.results[0]?.configs ?? [];
      const value = configs.find((c) => c.name === "follower.replication.throttled.replicas");
      return value?.value === "0:3" ? true : undefined;
    },
    { deadlineMs: 20_000, intervalMs: 100, what: `broker ${member.nodeId} sees the throttle` },
  );
}

async function reassign(member: Member, replicas: number[]): Promise<void> {
  const response = await request(
    member.client,
    alterPartitionReassignments,
    {
      timeoutMs: 10_000,
      topics: [{ name: TOPIC, partitions: [{ partitionIndex: 0, replicas }] }],
    },
    { maxVersion: 0 },
  );
  assert.equal(response.errorCode, 0);
  assert.equal(response.responses[0]?.partitions[0]?.errorCode, 0);
}

/** The size in bytes of `member`'s copy of the partition (0 while it has none). */
async function copySize(member: Member): Promise<number> {
  const response = await request(
    member.client,
    describeLogDirs,
    { topics: [{ topic: TOPIC, partitions: [0] }] },
    { maxVersion: 3 },
  );
  let size = 0;
  for (const dir of response.results) {
    for (const topic of dir.topics) {
      for (const partition of topic.partitions) {
        if (!partition.isFutureKey) size += partition.partitionSize;
      }
    }
  }
  return size;
}

async function awaitCopySize(
  member: Member,
  check: (size: number) => boolean,
  what: string,
): Promise<number> {
  const { value } = await pollUntil(
    async () => {
      const size = await copySize(member);
      return check(size) ? size : undefined;
    },
    { deadlineMs: 60_000, intervalMs: 100, what },
  );
  return value;
}

/** How many Fetch requests `member` has taken up, from its metrics endpoint. */
async function fetchRequestsServed(member: Member): Promise<number> {
  const config = readFileSync(member.node.configPath, "utf8");
  const listener = /^sluice\.http\.listener=(.+)$/m.exec(config)?.[1];
  assert.ok(listener !== undefined, "the node has an HTTP listener");
  const text = await (await fetch(`http://${listener.trim()}/metrics`)).text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("sluice_requests_total{") && line.includes('api="Fetch"')) {
      total += Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return total;
}
