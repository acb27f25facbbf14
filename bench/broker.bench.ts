/**
 * The broker end to end on loopback: one single-node Sluice process (as `npm start` runs it),
 * 1 KiB records. Produce throughput with acks=1 and acks=-1 from librdkafka (kcat) and from
 * kafkajs; consume throughput from the start of a log of BENCH_BROKER_LOG_MB (1024 by default)
 * with kcat; end-to-end latency (produce call to consumer output) at a fixed 5,000 records/s.
 * A raw sequential disk write of the same size is measured in the same run, in the same
 * folder, and printed beside them.
 */
import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { SluiceProcess } from "../test/clients/sluice-process.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const RECORD_BYTES = 1024;
const MIB = 1024 * 1024;
const LOG_MIB = Number(process.env["BENCH_BROKER_LOG_MB"] ?? 1024);
const PRODUCE_MIB = Math.min(LOG_MIB, 256);
const LATENCY_RATE_PER_SECOND = 5000;
const LATENCY_SECONDS = 10;

function figure(label: string, value: number, unit: string): BenchmarkResult {
  return { label, value, unit };
}

/** `count` lines "key-i\t<1 KiB value>" for kcat -K '\t'. */
function kcatInput(count: number): Buffer {
  const value = "x".repeat(RECORD_BYTES - 12);
  const lines: string[] = [];
  for (let index = 0; index < count; index++) lines.push(`k${index % 100}\t${value}`);
  return Buffer.from(`${lines.join("\n")}\n`);
}

/** Runs kcat with `args`, piping `input`; resolves to its stdout byte count when it exits. */
function kcat(args: readonly string[], input?: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("kcat", [...args], { stdio: ["pipe", "pipe", "inherit"] });
    let bytes = 0;
    child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(bytes) : reject(new Error(`kcat ${args.join(" ")} exited ${code}`)),
    );
    child.stdin.end(input);
  });
}

/** Sequential 1 MiB writes of `mib` MiB and one fsync: the disk the broker writes to. */
async function rawDiskWrite(folder: string, mib: number): Promise<BenchmarkResult> {
  const handle = await open(join(folder, "raw-disk-write.bin"), "w");
  const chunk = Buffer.alloc(MIB, 7);
  const start = performance.now();
  for (let index = 0; index < mib; index++) await handle.write(chunk);
  await handle.sync();
  const seconds = (performance.now() - start) / 1000;
  await handle.close();
  return figure(`raw disk write, ${mib} MiB + fsync (same run)`, mib / seconds, "MiB/s");
}

async function kcatProduce(node: SluiceProcess, acks: string): Promise<BenchmarkResult[]> {
  const count = (PRODUCE_MIB * MIB) / RECORD_BYTES;
  const input = kcatInput(count);
  const topic = `bench-kcat-acks${acks}`;
  const start = performance.now();
  await kcat(
    ["-P", "-b", node.bootstrap, "-t", topic, "-K", "\t", "-X", `acks=${acks}`].concat([
      "-X",
      "linger.ms=5",
      "-X",
      "batch.size=1000000",
    ]),
    input,
  );
  const seconds = (performance.now() - start) / 1000;
  return [
    figure(`produce kcat acks=${acks}`, (count * RECORD_BYTES) / MIB / seconds, "MiB/s"),
    figure(`produce kcat acks=${acks}`, count / seconds, "records/s"),
  ];
}

async function kafkajsProduce(node: SluiceProcess, acks: 1 | -1): Promise<BenchmarkResult[]> {
  const kafka = new Kafka({ brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: false });
  await producer.connect();
  const value = Buffer.alloc(RECORD_BYTES - 8, 1);
  const batch = Array.from({ length: 1000 }, (_, index) => ({ key: `k${index % 100}`, value }));
  const count = Math.min((PRODUCE_MIB * MIB) / RECORD_BYTES, 100_000);
  const topic = `bench-kafkajs-acks${acks}`;
  const start = performance.now();
  const inFlight: Promise<unknown>[] = [];
  for (let sent = 0; sent < count; sent += batch.length) {
    inFlight.push(producer.send({ topic, acks, messages: batch }));
    if (inFlight.length >= 4) await inFlight.shift();
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - start) / 1000;
  await producer.disconnect();
  return [
    figure(`produce kafkajs acks=${acks}`, (count * RECORD_BYTES) / MIB / seconds, "MiB/s"),
    figure(`produce kafkajs acks=${acks}`, count / seconds, "records/s"),
  ];
}

async function consumeFromStart(node: SluiceProcess): Promise<BenchmarkResult[]> {
  const topic = "bench-consume";
  const count = (LOG_MIB * MIB) / RECORD_BYTES;
  const input = kcatInput(Math.min(count, (256 * MIB) / RECORD_BYTES));
  for (let written = 0; written < count; written += (256 * MIB) / RECORD_BYTES) {
    await kcat(["-P", "-b", node.bootstrap, "-t", topic, "-K", "\t", "-X", "linger.ms=5"], input);
  }
  const start = performance.now();
  const args = ["-C", "-b", node.bootstrap, "-t", topic, "-o", "beginning", "-e", "-q"];
  await kcat(args.concat(["-f", "%o\\n", "-X", "fetch.max.bytes=52428800"]));
  const seconds = (performance.now() - start) / 1000;
  return [
    figure(`consume kcat from the start of ${LOG_MIB} MiB`, LOG_MIB / seconds, "MiB/s"),
    figure(`consume kcat from the start of ${LOG_MIB} MiB`, count / seconds, "records/s"),
  ];
}

/** Produces at a fixed rate with kafkajs; kcat consumes; latency = output time - send time. */
async function endToEndLatency(node: SluiceProcess): Promise<BenchmarkResult[]> {
  const topic = "bench-latency";
  const kafka = new Kafka({ brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: false });
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: [{ value: "warm-up" }] });
  const latencies: number[] = [];
  const consumer = spawn(
    "kcat",
    ["-C", "-b", node.bootstrap, "-t", topic, "-o", "end", "-u"].concat([
      "-q",
      "-f",
      "%s\\n",
      "-X",
      "fetch.wait.max.ms=5",
    ]),
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let pending = "";
  consumer.stdout.on("data", (chunk: Buffer) => {
    const nowMs = Date.now();
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) latencies.push(nowMs - Number(line.slice(0, 13)));
  });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const perTick = LATENCY_RATE_PER_SECOND / 100;
  const padding = "p".repeat(RECORD_BYTES - 13);
  const sends: Promise<unknown>[] = [];
  const startMs = performance.now();
  for (let tick = 0; tick < LATENCY_SECONDS * 100; tick++) {
    const messages = Array.from({ length: perTick }, () => ({ value: `${Date.now()}${padding}` }));
    sends.push(producer.send({ topic, acks: -1, messages }));
    // Ticks are scheduled against the start, so a late tick does not slow the rate down.
    const nextMs = startMs + (tick + 1) * 10;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextMs - performance.now())));
  }
  await Promise.all(sends);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  consumer.kill("SIGTERM");
  await producer.disconnect();
  latencies.sort((left, right) => left - right);
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const label = `end-to-end ${LATENCY_RATE_PER_SECOND} records/s, acks=-1`;
  return [
    figure(`${label} p50`, at(0.5), "ms"),
    figure(`${label} p99`, at(0.99), "ms"),
    figure(`${label} p99.9`, at(0.999), "ms"),
  ];
}

async function runBroker(): Promise<BenchmarkResult[]> {
  const node = await SluiceProcess.create(["log.retention.bytes=-1"]);
  try {
    await node.start();
    const results = [await rawDiskWrite(node.dataDir, PRODUCE_MIB)];
    results.push(...(await kcatProduce(node, "1")), ...(await kcatProduce(node, "-1")));
    results.push(...(await kafkajsProduce(node, 1)), ...(await kafkajsProduce(node, -1)));
    results.push(...(await consumeFromStart(node)));
    results.push(...(await endToEndLatency(node)));
    return results;
  } finally {
    await node.destroy();
  }
}

/** The broker figures, in the order they are printed. */
export const benchmarks: Benchmark[] = [{ name: "broker.single-node", run: runBroker }];
