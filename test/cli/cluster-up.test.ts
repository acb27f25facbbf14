/**
 * `sluice cluster up --brokers 3 --controllers 3` in a temporary folder, run as a child process:
 * kafkajs produces to and consumes from a topic of replication factor 3 over the bootstrap
 * servers it printed, `cluster status` shows every node up, and `cluster down` ends every
 * process it recorded. Whatever fails, `after` kills every pid of cluster.json.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { SLUICE, withDeadline } from "../clients/sluice-process.js";

/** How long one cluster command may take (`up` waits for six processes). */
const COMMAND_DEADLINE_MS = 120_000;

let folder: string;
let clusterDir: string;
let upOutput: string;

/** Runs `sluice cluster ARGS`; resolves to its exit code and output. */
function cluster(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SLUICE, "cluster", ...args, "--dir", clusterDir],
      { timeout: COMMAND_DEADLINE_MS },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The pids cluster.json records (none when it is missing). */
function recordedPids(): number[] {
  let text: string;
  try {
    text = readFileSync(join(clusterDir, "cluster.json"), "utf8");
  } catch {
    return [];
  }
  const state = JSON.parse(text) as { nodes: { pid: number | null }[] };
  return state.nodes.flatMap((node) => (node.pid === null ? [] : [node.pid]));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids `up` printed ("pid 123" on each node's line). */
function printedPids(output: string): number[] {
  return [...output.matchAll(/, pid (\d+),/g)].map((match) => Number(match[1]));
}

before(async () => {
  folder = mkdtempSync(join(tmpdir(), "sluice-cluster-up-"));
  clusterDir = join(folder, "cluster");
  const outcome = await cluster(["up", "--brokers", "3", "--controllers", "3"]);
  upOutput = outcome.stdout;
  assert.equal(outcome.code, 0, `${outcome.stdout}\n${outcome.stderr}`);
});

after(() => {
  for (const pid of recordedPids()) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  for (const pid of printedPids(upOutput ?? "")) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

test("cluster up prints three bootstrap servers and a dashboard that answers", async () => {
  assert.match(upOutput, /^Sluice cluster up in .*: 3 brokers, 3 controllers$/m);
  const bootstrap = /^bootstrap servers: (.*)$/m.exec(upOutput)?.[1];
  assert.equal(bootstrap?.split(",").length, 3, upOutput);
  assert.equal(printedPids(upOutput).length, 6, upOutput);
  const dashboard = /^dashboard: (http:\/\/\S+)$/m.exec(upOutput)?.[1];
  assert.ok(dashboard !== undefined, upOutput);
  const response = await fetch(dashboard);
  assert.equal(response.status, 200);
  await response.text();
});

test("kafkajs writes and reads a topic of replication factor 3 on the cluster", async () => {
  const bootstrap = /^bootstrap servers: (.*)$/m.exec(upOutput)?.[1] ?? "";
  const kafka = new Kafka({
    clientId: "cluster-up-test",
    brokers: bootstrap.split(","),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  const consumer = kafka.consumer({ groupId: "cluster-up-test" });
  try {
    await admin.connect();
    const created = await admin.createTopics({
      topics: [{ topic: "replicated", numPartitions: 3, replicationFactor: 3 }],
      waitForLeaders: true,
    });
    assert.equal(created, true);
    const [described] = (await admin.fetchTopicMetadata({ topics: ["replicated"] })).topics;
    for (const partition of described?.partitions ?? []) {
      assert.equal(partition.replicas.length, 3);
    }
    await producer.connect();
    const values = Array.from({ length: 30 }, (_, index) => `value-${index}`);
    await producer.send({
      topic: "replicated",
      acks: -1,
      messages: values.map((value, index) => ({ key: `key-${index % 5}`, value })),
    });
    await consumer.connect();
    await consumer.subscribe({ topic: "replicated", fromBeginning: true });
    const read: string[] = [];
    const allRead = new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          read.push(message.value?.toString() ?? "");
          if (read.length === values.length) resolve();
        },
      });
    });
    await withDeadline(allRead, COMMAND_DEADLINE_MS, () => `read only ${read.length} records`);
    assert.deepEqual([...read].sort(), [...values].sort());
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.disconnect();
  }
});

test("cluster status shows every node up, then cluster down ends every process", async () => {
  const status = await cluster(["status"]);
  assert.equal(status.code, 0, `${status.stdout}\n${status.stderr}`);
  const nodeLines = status.stdout.split("\n").filter((line) => line.startsWith("node "));
  assert.equal(nodeLines.length, 6, status.stdout);
  for (const line of nodeLines) assert.match(line, /^node \d \((broker|controller)\) up, /);
  const pids = recordedPids();
  assert.equal(pids.length, 6);
  const down = await cluster(["down"]);
  assert.equal(down.code, 0, `${down.stdout}\n${down.stderr}`);
  assert.equal(down.stderr, "", "every node stopped on SIGTERM");
  assert.deepEqual(
    pids.filter((pid) => isRunning(pid)),
    [],
  );
  const stopped = await cluster(["status"]);
  assert.equal(stopped.code, 1);
  const downLines = stopped.stdout.split("\n").filter((line) => line.startsWith("node "));
  for (const line of downLines) assert.match(line, /^node \d \((broker|controller)\) down, /);
});
