/**
 * Exactly-once through kill -9, on three combined nodes: a consume-transform-produce loop
 * (librdkafka's transactional producer through confluent-kafka-python, test/clients/python/
 * ctp_loop.py) reads `ctp-in` and writes `ctp-out` while the node coordinating its
 * transactional id, and then the leader of an output partition, are killed with -9 mid-run and
 * started again. Every input record is then in the committed output exactly once, no record of
 * an aborted transaction is read by read_committed consumers, and the last stable offset of no
 * output partition ever moved backwards.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { listOffsets } from "../../src/protocol/index.js";
import { readCommitted } from "../clients/read-committed.js";
import { killAll, request } from "./cluster-process.js";
import {
  awaitPartitions,
  bootstrapServers,
  coordinatorOf,
  createReplicatedTopic,
  describeTopic,
  expectBrokers,
  QUICK_FAILURE_DETECTION,
  startThreeNodes,
  type Member,
} from "./three-nodes.js";

after(killAll);

const ROOT = join(import.meta.dirname, "..", "..", "..");
const SCRIPT = join(ROOT, "test", "clients", "python", "ctp_loop.py");
const PYTHON = "/usr/bin/python3";
const PARTITIONS = 3;
const COUNT = 300;

async function hasBinding(): Promise<boolean> {
  const child = spawn(PYTHON, ["-c", "import confluent_kafka"], { stdio: "ignore" });
  return new Promise((resolve) => {
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
}

const available = await hasBinding();

/** Watches the read_committed end (the LSO) of each output partition, at its leader. */
class StableOffsetWatch {
  readonly highest = new Map<number, { readonly offset: number; readonly by: string }>();
  readonly backwards: string[] = [];
  private isRunning = true;
  private readonly done: Promise<void>;

  constructor(members: readonly Member[], topic: string) {
    this.done = this.watch(members, topic);
  }

  async stop(): Promise<void> {
    this.isRunning = false;
    await this.done;
  }

  private async watch(members: readonly Member[], topic: string): Promise<void> {
    while (this.isRunning) {
      await this.lookOnce(members, topic).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async lookOnce(members: readonly Member[], topic: string): Promise<void> {
    const running = members.find((member) => member.node.isRunning);
    if (running === undefined) return;
    const { partitions } = await describeTopic(running, topic);
    for (const [index, view] of partitions) {
      const leader = members.find((member) => member.nodeId === view.leader);
      if (leader === undefined || !leader.node.isRunning) continue;
      const body = {
        replicaId: -1,
        isolationLevel: 1,
        topics: [{ name: topic, partitions: [{ partitionIndex: index, timestamp: -1 }] }],
      };
      const answer = await request(leader.client, listOffsets, body, { maxVersion: 7 });
      const partition = answer.topics[0]?.partitions[0];
      if (partition === undefined || partition.errorCode !== 0) continue;
      const by = `node ${leader.nodeId} in epoch ${partition.leaderEpoch}`;
      const before = this.highest.get(index) ?? { offset: -1, by: "none" };
      if (partition.offset < before.offset) {
        const was = `${before.offset} (${before.by})`;
        this.backwards.push(`partition ${index}: ${was} then ${partition.offset} (${by})`);
      }
      if (partition.offset > before.offset)
        this.highest.set(index, { offset: partition.offset, by });
    }
  }
}

/** The loop's process: its progress lines, and its final line once it ends. */
function startLoop(bootstrap: string) {
  const child = spawn(PYTHON, [SCRIPT, bootstrap, "ctp-in", "ctp-out", String(COUNT), "3"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let committed = 0;
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const waiters: { readonly atLeast: number; readonly resolve: () => void }[] = [];
  const finished = new Promise<Record<string, number>>((resolve, reject) => {
    lines.on("line", (line) => {
      const parsed = JSON.parse(line) as Record<string, number>;
      if (parsed["done"] !== undefined) return resolve(parsed);
      committed = parsed["committed"] ?? committed;
      for (const waiter of waiters.filter((each) => committed >= each.atLeast)) waiter.resolve();
    });
    child.on("exit", (code) => reject(new Error(`the loop exited with ${code}: ${stderr}`)));
  });
  const transactions = (atLeast: number) =>
    new Promise<void>((resolve) => {
      if (committed >= atLeast) resolve();
      else waiters.push({ atLeast, resolve });
    });
  return { child, finished, transactions };
}

async function killAndRestart(member: Member, members: readonly Member[]): Promise<void> {
  await member.node.stop("SIGKILL");
  await awaitPartitions(
    members,
    "ctp-out",
    (partitions) => [...partitions.values()].every((p) => p.leader !== member.nodeId),
    `the output led without node ${member.nodeId}`,
    60_000,
  );
  await member.node.start();
}

test(
  "a transactional loop through kill -9 of its coordinator and a leader writes exactly once",
  { skip: available ? false : "python3-confluent-kafka is not installed", timeout: 400_000 },
  async () => {
    const members = await startThreeNodes("ctp-kill", QUICK_FAILURE_DETECTION);
    const [first] = members;
    assert.ok(first !== undefined);
    await expectBrokers(first, [1, 2, 3]);
    for (const topic of ["ctp-in", "ctp-out"]) {
      await createReplicatedTopic(first, { topic, partitions: PARTITIONS, minInsyncReplicas: 2 });
    }
    const kafka = new Kafka({
      brokers: bootstrapServers(members).split(","),
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer();
    await producer.connect();
    const inputs = Array.from({ length: COUNT }, (_, index) => `record-${index}`);
    const messages = inputs.map((value, index) => ({ key: `k${index % 17}`, value }));
    await producer.send({ topic: "ctp-in", acks: -1, messages });
    await producer.disconnect();

    const watch = new StableOffsetWatch(members, "ctp-out");
    const loop = startLoop(bootstrapServers(members));
    try {
      await loop.transactions(5);
      const coordinatorId = await coordinatorOf(members, { key: "python-ctp-chaos", keyType: 1 });
      const coordinator = members.find((member) => member.nodeId === coordinatorId);
      assert.ok(coordinator !== undefined);
      await killAndRestart(coordinator, members);
      await loop.transactions(25);
      const { partitions } = await describeTopic(
        first.node.isRunning ? first : coordinator,
        "ctp-out",
      );
      const leaderId = [...partitions.values()].find((p) => p.leader !== coordinatorId)?.leader;
      const leader = members.find((member) => member.nodeId === leaderId) ?? coordinator;
      await killAndRestart(leader, members);
      const outcome = await loop.finished;
      assert.ok((outcome["done"] ?? 0) >= COUNT, JSON.stringify(outcome));
    } finally {
      loop.child.kill("SIGKILL");
      await watch.stop();
    }
    const seen = await readCommitted(kafka, {
      topic: "ctp-out",
      groupId: "ctp-checker",
      committedCount: COUNT,
      committedPrefix: "RECORD-",
    });
    assert.deepEqual(
      [...seen].sort(),
      inputs.map((value) => value.toUpperCase()).sort(),
      "every input record once in the committed output, nothing of an aborted transaction",
    );
    assert.deepEqual(watch.backwards, [], "no last stable offset moved backwards");
  },
);
