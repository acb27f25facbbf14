/**
 * File descriptors as a budget: a node whose process may hold 4096 open files (prlimit) hosts
 * 20,000 single-segment partitions, created by four CreateTopics requests of 5,000 (one
 * request writes at most 10,000 metadata records, as in Kafka), keeps its only log dir online,
 * and after a restart under the same limit loads them all again and serves produce and fetch on
 * some of them, the records written before the restart included.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ErrorCode } from "../../src/common/index.js";
import { withConnection } from "../../src/client/index.js";
import { createTopics } from "../../src/protocol/index.js";
import { pollUntil } from "../cluster/cluster-process.js";
import { clientPorts, SluiceProcess } from "./sluice-process.js";

const run = promisify(execFile);
const OPEN_FILE_LIMIT = 4096;
const TOPICS = ["budget-a", "budget-b", "budget-c", "budget-d"] as const;
const PARTITIONS_PER_TOPIC = 5_000;
/** The partitions produced to and read back, in each topic. */
const PROBED = [0, 1, 2_499, 4_999] as const;
/**
 * What the waits allow before a hang is declared: creating 20,000 logs is bound by the disk's
 * sync rate, which on a shared machine went from about 5 minutes to past 10.
 */
const DEADLINE_MS = 1_500_000;

const nodes: SluiceProcess[] = [];

after(async () => {
  for (const node of nodes) await node.destroy();
});

async function kcat(args: readonly string[], input?: string): Promise<string> {
  const child = run("kcat", [...args], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
  if (input !== undefined) child.child.stdin?.end(input);
  return (await child).stdout;
}

async function scrape(node: SluiceProcess, metric: string): Promise<number | undefined> {
  const response = await fetch(`http://127.0.0.1:${node.ports.http}/metrics`);
  const text = await response.text();
  const line = text
    .split("\n")
    .find((each) => each.startsWith(`${metric} `) || each.startsWith(`${metric}{`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

async function waitForLeaders(node: SluiceProcess, count: number): Promise<void> {
  await pollUntil(
    async () =>
      (await scrape(node, "kafka_server_replicamanager_leadercount")) === count ? true : undefined,
    { deadlineMs: DEADLINE_MS, intervalMs: 1000, what: `${count} partitions led` },
  );
}

async function createManyTopics(node: SluiceProcess): Promise<void> {
  for (const name of TOPICS) {
    const body = {
      topics: [
        {
          name,
          numPartitions: PARTITIONS_PER_TOPIC,
          replicationFactor: 1,
          assignments: [],
          configs: [],
        },
      ],
      timeoutMs: 120_000,
      validateOnly: false,
    };
    const created = await withConnection(
      { host: "127.0.0.1", port: node.ports.client },
      clientPorts(),
      (connection) => connection.send(createTopics, body, { maxVersion: 7 }),
      { requestTimeoutMs: 180_000 },
    );
    assert.ok(created.kind === "response", `CreateTopics answered:\n${node.log.slice(-4000)}`);
    assert.equal(
      created.body.topics[0]?.errorCode,
      ErrorCode.NONE,
      created.body.topics[0]?.errorMessage ?? "",
    );
  }
}

async function produceAndRead(node: SluiceProcess, round: string): Promise<void> {
  for (const topic of TOPICS) {
    for (const partition of PROBED) {
      const target = ["-b", node.bootstrap, "-t", topic, "-p", String(partition)];
      await kcat(["-P", ...target, "-X", "acks=all"], `${round}-${topic}-${partition}\n`);
      const read = await kcat(["-C", ...target, "-o", "beginning", "-e", "-q"]);
      const lines = read.split("\n").filter((line) => line !== "");
      assert.equal(lines[lines.length - 1], `${round}-${topic}-${partition}`);
      if (round === "after")
        assert.deepEqual(lines, [`before-${topic}-${partition}`, `after-${topic}-${partition}`]);
    }
  }
}

test("a node limited to 4096 open files hosts 20,000 partitions and restarts on them", async () => {
  const node = await SluiceProcess.create([], {
    launcher: ["prlimit", `--nofile=${OPEN_FILE_LIMIT}`, "--"],
    startDeadlineMs: DEADLINE_MS,
    stopDeadlineMs: DEADLINE_MS,
  });
  nodes.push(node);
  await node.start();
  assert.match(node.log, /open file limit.*processLimit=4096/);
  await createManyTopics(node);
  const total = TOPICS.length * PARTITIONS_PER_TOPIC;
  await waitForLeaders(node, total);
  await produceAndRead(node, "before");
  assert.equal(await scrape(node, "sluice_log_dir_offline"), 0, node.log.slice(-4000));
  const stopping = performance.now();
  assert.equal(await node.stop("SIGTERM"), 0, node.log.slice(-4000));
  console.log(
    `clean shutdown of 20,000 partitions took ${Math.round(performance.now() - stopping)} ms`,
  );

  await node.start();
  assert.match(node.log, /open file limit.*processLimit=4096/);
  await waitForLeaders(node, total);
  await produceAndRead(node, "after");
  assert.equal(await scrape(node, "sluice_log_dir_offline"), 0, node.log.slice(-4000));
  assert.doesNotMatch(node.log, /log dir failed|EMFILE/);
});
