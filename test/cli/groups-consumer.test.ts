/**
 * `sluice groups` against a KIP-848 consumer group (one real node): a member joined with
 * ConsumerGroupHeartbeat is listed as type consumer, its group described per assigned partition
 * (no offset committed yet) and by state, with the server assignor that assigned them.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel, type Admin } from "kafkajs";
import { SluiceProcess, withDeadline } from "../clients/sluice-process.js";
import { request } from "../cluster/cluster-process.js";
import {
  consumerGroupHeartbeat,
  findCoordinator,
  type ConsumerGroupHeartbeatRequest,
  type MessageInput,
} from "../../src/protocol/index.js";
import { json, lines, runSluice, type Outcome } from "./run-sluice.js";

const TOPIC = "group-orders";

let node: SluiceProcess;
let admin: Admin;

interface DescribedRow {
  readonly TOPIC: string | null;
  readonly PARTITION: number | null;
  readonly "CONSUMER-ID": string | null;
  readonly "CURRENT-OFFSET": number | null;
}

before(async () => {
  node = await SluiceProcess.create(["group.initial.rebalance.delay.ms=0"]);
  await node.start();
  const kafka = new Kafka({ brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
});

after(async () => {
  await admin?.disconnect();
  await node.destroy();
});

function groups(subcommand: string, ...args: string[]): Promise<Outcome> {
  return runSluice(["groups", subcommand, "--bootstrap-server", node.bootstrap, ...args]);
}

/**
 * Asks FindCoordinator for the group until the node names one, as a client does before it joins:
 * the first ask creates the offsets topic the coordinator needs.
 */
async function findGroupCoordinator(groupId: string): Promise<void> {
  const endpoint = { host: "127.0.0.1", port: node.ports.client };
  for (;;) {
    const body = { key: groupId, keyType: 0 };
    const response = await request(endpoint, findCoordinator, body, { maxVersion: 3 });
    if (response.errorCode === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends one ConsumerGroupHeartbeat (KIP-848) to the node, until the coordinator has loaded. */
async function heartbeat(body: MessageInput<ConsumerGroupHeartbeatRequest>) {
  const endpoint = { host: "127.0.0.1", port: node.ports.client };
  for (;;) {
    const response = await request(endpoint, consumerGroupHeartbeat, body, { maxVersion: 0 });
    // COORDINATOR_LOAD_IN_PROGRESS (14) and COORDINATOR_NOT_AVAILABLE (15) pass.
    if (response.errorCode !== 14 && response.errorCode !== 15) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("a KIP-848 consumer group is listed and described with its member's partitions", async () => {
  const join = {
    groupId: "kip848",
    memberId: "",
    memberEpoch: 0,
    instanceId: null,
    rackId: null,
    rebalanceTimeoutMs: 30_000,
    subscribedTopicNames: [TOPIC],
    subscribedTopicRegex: null,
    serverAssignor: null,
    topicPartitions: [],
  };
  const found = findGroupCoordinator(join.groupId);
  await withDeadline(found, 60_000, () => "no coordinator for the group");
  const joined = await withDeadline(heartbeat(join), 60_000, () => "the member did not join");
  assert.equal(joined.errorCode, 0);
  const listed = await groups("list", "--type", "consumer");
  assert.match(listed.stdout, /^kip848 +consumer +Stable$/m);
  const described = await groups("describe", "--group", "kip848", "--json");
  assert.equal(described.code, 0, described.stderr);
  const rows = json<DescribedRow[]>(described);
  assert.deepEqual(
    rows.map((row) => [row.TOPIC, row.PARTITION, row["CONSUMER-ID"], row["CURRENT-OFFSET"]]),
    [
      [TOPIC, 0, joined.memberId, null],
      [TOPIC, 1, joined.memberId, null],
    ],
  );
  const state = await groups("describe", "--group", "kip848", "--state");
  assert.match(lines(state.stdout)[1] ?? "", /^kip848 +\S+ \(1\) +uniform +Stable +1$/);
  const left = await heartbeat({ ...join, memberId: joined.memberId ?? "", memberEpoch: -1 });
  assert.equal(left.errorCode, 0);
});
