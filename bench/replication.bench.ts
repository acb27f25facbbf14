/**
 * Replication on loopback (B3 and the failover figures): three combined Sluice processes, a
 * topic of replication factor 3 with min.insync.replicas 2, kcat writing 1 KiB records with
 * acks=all, beside one single-node process taking the same load in the same run, as a ratio;
 * and how long producers wait after a partition leader dies with 1,000 and 10,000 partitions in
 * the cluster, against the bound `broker.session.timeout.ms` + 1 s (4 s with the 3 s session
 * the nodes run with here).
 */
import { spawn } from "node:child_process";
import { Kafka, logLevel } from "kafkajs";
import { SluiceProcess } from "../test/clients/sluice-process.js";
import { killAll, pollUntil } from "../test/cluster/cluster-process.js";
import {
  QUICK_FAILURE_DETECTION,
  awaitPartitions,
  bootstrapServers,
  createReplicatedTopic,
  expectBrokers,
  startThreeNodes,
  type Member,
} from "../test/cluster/three-nodes.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const RECORD_BYTES = 1024;
const MIB = 1024 * 1024;
const PRODUCE_MIB = Number(process.env["BENCH_REPLICATION_MB"] ?? 128);
const PARTITIONS = 8;

function figure(label: string, value: number, unit: string): BenchmarkResult {
  return { label, value, unit };
}

/** Produces `mib` MiB of 1 KiB records to `topic` with kcat at acks=all; resolves to MiB/s. */
function kcatProduce(bootstrap: string, topic: string, mib: number): Promise<number> {
  const count = (mib * MIB) / RECORD_BYTES;
  const value = "x".repeat(RECORD_BYTES - 12);
  const lines: string[] = [];
  for (let index = 0; index < count; index++) lines.push(`k${index % 1000}\t${value}`);
  const input = Buffer.from(`${lines.join("\n")}\n`);
  const args = ["-P", "-b", bootstrap, "-t", topic, "-K", "\t", "-X", "acks=all"].concat([
    "-X",
    "linger.ms=5",
    "-X",
    "batch.size=1000000",
  ]);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("kcat", args, { stdio: ["pipe", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`kcat exited ${code}`));
      else resolve(mib / ((performance.now() - started) / 1000));
    });
    child.stdin.end(input);
  });
}

async function singleNodeThroughput(): Promise<number> {
  const node = await SluiceProcess.create([
    "log.retention.bytes=-1",
    `num.partitions=${PARTITIONS}`,
  ]);
  try {
    await node.start();
    return await kcatProduce(node.bootstrap, "bench-single", PRODUCE_MIB);
  } finally {
    await node.destroy();
  }
}

async function threeNodeThroughput(): Promise<number> {
  const members = await startThreeNodes("bench-replication", { "log.retention.bytes": "-1" });
  try {
    const [first] = members as [Member];
    await expectBrokers(first, [1, 2, 3]);
    const topic = "bench-replicated";
    await createReplicatedTopic(first, { topic, partitions: PARTITIONS, minInsyncReplicas: 2 });
    await awaitPartitions(members, topic, isFullIsr, "a full ISR");
    return await kcatProduce(bootstrapServers(members), topic, PRODUCE_MIB);
  } finally {
    await killAll();
  }
}

function isFullIsr(partitions: ReadonlyMap<number, { readonly isr: readonly number[] }>): boolean {
  return [...partitions.values()].every((partition) => partition.isr.length === 3);
}

async function runThroughput(): Promise<BenchmarkResult[]> {
  const single = await singleNodeThroughput();
  const replicated = await threeNodeThroughput();
  const label = `kcat acks=all, 1 KiB, ${PARTITIONS} partitions`;
  return [
    figure(`${label}, one node (same run)`, single, "MiB/s"),
    figure(`${label}, three nodes RF 3 min ISR 2`, replicated, "MiB/s"),
    figure(`${label}, three nodes / one node`, replicated / single, "ratio"),
  ];
}

/**
 * With `partitions` partitions of replication factor 3 on the three nodes, kills -9 the leader
 * of partition 0 and times, from the kill, until a kafkajs producer's acks=all write to that
 * partition succeeds again.
 */
async function failoverWithPartitions(partitions: number): Promise<BenchmarkResult> {
  const members = await startThreeNodes(`bench-failover-${partitions}`, QUICK_FAILURE_DETECTION);
  try {
    const [first] = members as [Member];
    await expectBrokers(first, [1, 2, 3]);
    const topic = "bench-failover-0";
    // Topics of at most 5,000 partitions: one CreateTopics may write 10,000 records at most.
    for (let made = 0; made < partitions; made += TOPIC_PARTITIONS_MAX) {
      const name = `bench-failover-${made / TOPIC_PARTITIONS_MAX}`;
      const count = Math.min(TOPIC_PARTITIONS_MAX, partitions - made);
      await createReplicatedTopic(first, { topic: name, partitions: count, minInsyncReplicas: 2 })
        // A forwarded CreateTopics that the broker sent again after a lost connection answers
        // TOPIC_ALREADY_EXISTS when its first attempt committed, as Kafka's does.
        .catch((error: unknown) => {
          if (!String(error).includes("already exists")) throw error;
        });
      await awaitPartitions(members, name, isFullIsr, "a full ISR", 600_000);
    }
    const before = await awaitPartitions(members, topic, isFullIsr, "a full ISR", 600_000);
    const victim = members.find((member) => member.nodeId === before.get(0)?.leader) as Member;
    const bootstrap = bootstrapServers(members.filter((member) => member !== victim));
    const kafka = new Kafka({ brokers: bootstrap.split(","), logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ retry: { retries: 0 }, allowAutoTopicCreation: false });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ partition: 0, value: "before" }] });
    await victim.node.stop("SIGKILL");
    const killedAt = performance.now();
    const { elapsedMs } = await pollUntil(
      async () => {
        await producer.send({
          topic,
          acks: -1,
          timeout: 2000,
          messages: [{ partition: 0, value: "after" }],
        });
        return true;
      },
      { deadlineMs: 120_000, intervalMs: 20, what: "a write after the kill" },
    );
    await producer.disconnect();
    const waitedMs = performance.now() - killedAt;
    return figure(
      `produce again after a leader dies, ${partitions} partitions`,
      Math.max(waitedMs, elapsedMs),
      "ms",
    );
  } finally {
    await killAll();
  }
}

const TOPIC_PARTITIONS_MAX = 5_000;

/** The partition counts of the failover figures (BENCH_FAILOVER_PARTITIONS, comma-separated). */
const FAILOVER_PARTITIONS = (process.env["BENCH_FAILOVER_PARTITIONS"] ?? "1000,10000")
  .split(",")
  .map(Number);

async function runFailover(): Promise<BenchmarkResult[]> {
  const results: BenchmarkResult[] = [];
  for (const partitions of FAILOVER_PARTITIONS)
    results.push(await failoverWithPartitions(partitions));
  results.push(figure("bound: broker.session.timeout.ms + 1 s", 4000, "ms"));
  return results;
}

export const benchmarks: Benchmark[] = [
  { name: "replication.throughput", run: runThroughput },
  { name: "replication.failover", run: runFailover },
];
