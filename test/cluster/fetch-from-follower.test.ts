/**
 * Fetching from the closest replica (KIP-392) with real processes and librdkafka: three combined
 * nodes in racks r1, r2 and r3 with Kafka's RackAwareReplicaSelector, one partition led by node
 * 1. kcat with `client.rack=r2` is sent by the leader to node 2 and reads every record there;
 * with `client.rack=r3` it reads them at node 3; a kafkajs group consumer with `rackId` r2 reads
 * them at node 2. Where the records were read is seen in each node's own count of client Fetch
 * requests (`sluice_requests_total`): the followers lead nothing replicated (`__consumer_offsets`
 * has one replica), so no replica fetcher sends them any, and only the consumer in their rack
 * does.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Kafka, logLevel } from "kafkajs";
import { fetch } from "../../src/protocol/index.js";
import { RACK_AWARE_REPLICA_SELECTOR_CLASS } from "../../src/replication/index.js";
import { withDeadline } from "../clients/sluice-process.js";
import { killAll, pollUntil, request } from "./cluster-process.js";
import {
  awaitPartitions,
  bootstrapServers,
  createAssignedTopic,
  expectBrokers,
  startThreeNodes,
  type Member,
} from "./three-nodes.js";

after(killAll);

const run = promisify(execFile);
const TOPIC = "racks";
const MESSAGES = Array.from({ length: 50 }, (_, index) => `record-${index}`);

/** kcat with `args`, `input` on stdin; resolves to what it printed. */
async function kcat(args: readonly string[], input?: string): Promise<string> {
  const child = run("kcat", [...args], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  if (input !== undefined) child.child.stdin?.end(input);
  return (await child).stdout;
}

/** The client listener's Fetch requests `member` has taken up, from its /metrics. */
async function clientFetchRequests(member: Member): Promise<number> {
  const response = await globalThis.fetch(`http://${member.http.host}:${member.http.port}/metrics`);
  const text = await response.text();
  const line = text
    .split("\n")
    .find(
      (candidate) =>
        candidate.startsWith("sluice_requests_total{") &&
        candidate.includes('api="Fetch"') &&
        candidate.includes('server="client"'),
    );
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
}

/** Waits until `member`'s own high watermark of the partition, as a consumer sees it, is `end`. */
async function awaitHighWatermark(member: Member, end: number): Promise<void> {
  await pollUntil(
    async () => {
      const response = await request(
        member.client,
        fetch,
        {
          replicaId: -1,
          maxWaitMs: 0,
          minBytes: 1,
          maxBytes: 1024,
          sessionEpoch: -1,
          topics: [
            {
              topic: TOPIC,
              partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1024 }],
            },
          ],
          rackId: "",
        },
        { maxVersion: 11 },
      );
      const partition = response.responses[0]?.partitions[0];
      return partition?.errorCode === 0 && partition.highWatermark === end ? true : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 100, what: `node ${member.nodeId} at high watermark ${end}` },
  );
}

/** Reads the whole partition with a kafkajs group consumer in `rackId`. */
async function consumeWithKafkajs(bootstrap: string, rackId: string): Promise<string[]> {
  const kafka = new Kafka({ brokers: bootstrap.split(","), logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `racks-${rackId}`, rackId, sessionTimeout: 10_000 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          seen.push(message.value?.toString() ?? "");
          if (seen.length >= MESSAGES.length) resolve();
        },
      });
    });
    await withDeadline(done, 90_000, () => `only ${seen.length} records arrived`);
    return seen;
  } finally {
    await consumer.disconnect();
  }
}

/** Reads the whole partition with kcat from `rack`, until its end. */
async function consumeFrom(bootstrap: string, rack: string): Promise<string[]> {
  const consumed = await kcat(
    ["-C", "-b", bootstrap, "-t", TOPIC, "-p", "0", "-o", "beginning", "-e", "-q"].concat([
      "-X",
      `client.rack=${rack}`,
      "-f",
      "%s\\n",
    ]),
  );
  return consumed.split("\n").filter((line) => line !== "");
}

/** Fails unless `read` ran while `reader`, and not `other`, took up client Fetch requests. */
async function expectReadAt(
  nodes: { readonly reader: Member; readonly other: Member },
  read: () => Promise<void>,
): Promise<void> {
  const { reader, other } = nodes;
  const before = [await clientFetchRequests(reader), await clientFetchRequests(other)];
  await read();
  const after = [await clientFetchRequests(reader), await clientFetchRequests(other)];
  assert.ok(
    (after[0] ?? 0) > (before[0] ?? 0),
    `node ${reader.nodeId} served its rack's consumer (${before[0]} -> ${after[0]})`,
  );
  assert.equal(after[1], before[1], `node ${other.nodeId} was not fetched from`);
}

test(
  "kcat and kafkajs with a rack read every record from the follower in their rack",
  { timeout: 300_000 },
  async () => {
    const members = await startThreeNodes(
      "racks",
      {
        "replica.selector.class": RACK_AWARE_REPLICA_SELECTOR_CLASS,
        "offsets.topic.replication.factor": "1",
        "offsets.topic.num.partitions": "1",
      },
      (nodeId) => ({ "broker.rack": `r${nodeId}` }),
    );
    const [first, second, third] = members;
    assert.ok(first !== undefined && second !== undefined && third !== undefined);
    await expectBrokers(first, [1, 2, 3]);
    await createAssignedTopic(first, TOPIC, [[1, 2, 3]]);
    await awaitPartitions(
      members,
      TOPIC,
      (partitions) => partitions.get(0)?.leader === 1 && partitions.get(0)?.isr.length === 3,
      "node 1 leading with all three in the ISR",
    );
    const bootstrap = bootstrapServers(members);
    await kcat(
      ["-P", "-b", bootstrap, "-t", TOPIC, "-p", "0", "-X", "acks=all"],
      MESSAGES.join("\n"),
    );
    // A follower serves up to its own high watermark, which it learns on its next fetch.
    await awaitHighWatermark(second, MESSAGES.length);
    await awaitHighWatermark(third, MESSAGES.length);

    await expectReadAt({ reader: second, other: third }, async () => {
      assert.deepEqual(await consumeFrom(bootstrap, "r2"), MESSAGES, "kcat in r2, in order");
    });
    await expectReadAt({ reader: third, other: second }, async () => {
      assert.deepEqual(await consumeFrom(bootstrap, "r3"), MESSAGES, "kcat in r3, in order");
    });
    await expectReadAt({ reader: second, other: third }, async () => {
      const consumed = await consumeWithKafkajs(bootstrap, "r2");
      assert.deepEqual(consumed, MESSAGES, "kafkajs in r2, in order");
    });
  },
);
