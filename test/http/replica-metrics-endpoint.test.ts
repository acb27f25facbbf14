/**
 * The replica manager's metric families on the `/metrics` route of a running single-node
 * process: after a topic is created, the scrape shows the partitions this broker leads and their
 * replication health, computed from the replica manager at the moment of the scrape, and the
 * cluster view counts the cluster's replication health for the dashboard.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { withConnection } from "../../src/client/index.js";
import { createTopics } from "../../src/protocol/index.js";
import { pollUntil } from "../cluster/cluster-process.js";
import { clientPorts, SluiceProcess } from "../clients/sluice-process.js";

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
});

after(async () => {
  await node.destroy();
});

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${node.ports.http}/metrics`);
  assert.equal(response.status, 200);
  return response.text();
}

/** The value of the sample `name` (without labels) in `text`, or undefined. */
function sampleOf(text: string, name: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

test("a scrape shows the replica manager's families for the partitions it leads", async () => {
  const body = {
    topics: [
      { name: "orders", numPartitions: 3, replicationFactor: 1, assignments: [], configs: [] },
    ],
    timeoutMs: 10_000,
    validateOnly: false,
  };
  const created = await withConnection(
    { host: "127.0.0.1", port: node.ports.client },
    clientPorts(),
    (connection) => connection.send(createTopics, body, { maxVersion: 7 }),
    { requestTimeoutMs: 20_000 },
  );
  assert.ok(created.kind === "response");
  assert.equal(created.body.topics[0]?.errorCode, ErrorCode.NONE);
  const { value: text } = await pollUntil(
    async () => {
      const text = await scrape();
      return sampleOf(text, "kafka_server_replicamanager_leadercount") === 3 ? text : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 100, what: "three partitions led" },
  );
  const expected: Record<string, number> = {
    kafka_server_replicamanager_partitioncount: 3,
    kafka_server_replicamanager_underreplicatedpartitions: 0,
    kafka_server_replicamanager_underminisrpartitioncount: 0,
    // One replica and min.insync.replicas=1: each ISR is exactly at its minimum.
    kafka_server_replicamanager_atminisrpartitioncount: 3,
    kafka_server_replicamanager_offlinereplicacount: 0,
    kafka_server_replicamanager_reassigningpartitions: 0,
    kafka_server_replicamanager_isrshrinks_total: 0,
    kafka_server_replicamanager_isrexpands_total: 0,
    kafka_server_replicamanager_failedisrupdates_total: 0,
  };
  for (const [name, value] of Object.entries(expected)) {
    assert.equal(sampleOf(text, name), value, name);
  }
  assert.match(text, /^kafka_server_replicafetchermanager_maxlag\{clientId="Replica"\} 0$/m);
  const family = "kafka_server_replicamanager_underreplicatedpartitions";
  const help = text.split("\n").find((line) => line.startsWith(`# HELP ${family} `));
  assert.match(
    help ?? "",
    /\(Kafka's kafka\.server:type=ReplicaManager,name=UnderReplicatedPartitions\)\.$/,
  );
  assert.match(text, /^# TYPE kafka_server_replicamanager_isrshrinks_total counter$/m);
  const view = (await (await fetch(`http://127.0.0.1:${node.ports.http}/v1/cluster`)).json()) as {
    replication: unknown;
    replicaManager: { leaderCount: number; underReplicatedPartitions: number };
  };
  assert.equal(view.replicaManager.leaderCount, 3);
  assert.equal(view.replicaManager.underReplicatedPartitions, 0);
  assert.deepEqual(view.replication, {
    offlinePartitions: 0,
    underReplicatedPartitions: 0,
    underMinIsrPartitions: 0,
  });
});
