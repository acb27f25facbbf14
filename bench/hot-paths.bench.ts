/**
 * The produce and fetch paths of one single-node Sluice process on loopback, with kcat
 * (librdkafka) as the load: B1 1 KiB records acks=1 on 8 partitions, B2 100-byte records, B12 a
 * consumer catching up on a 1 GiB backlog from its start. With BENCH_COMPARE_ROOT set to another
 * checkout's folder (built, with its bin/sluice.js), the two builds run alternately, A B A B,
 * BENCH_HOT_ROUNDS times each, on the same inputs and the same backlog, and the medians and
 * their ratio are printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, singleNodeSettings } from "../test/clients/sluice-process.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const THIS_ROOT = join(import.meta.dirname, "..", "..");
const COMPARE_ROOT = process.env["BENCH_COMPARE_ROOT"];
const ROUNDS = Number(process.env["BENCH_HOT_ROUNDS"] ?? (COMPARE_ROOT === undefined ? 1 : 3));
const BACKLOG_MIB = Number(process.env["BENCH_HOT_BACKLOG_MB"] ?? 1024);
const PRODUCE_MIB = 256;
/** B2's record count: about 190 MiB of 100-byte lines. */
const B2_RECORDS = 2_000_000;
const MIB = 1024 * 1024;
const START_DEADLINE_MS = 60_000;

/** A running node of the build at `root`, on `dataDir`; stopped with SIGTERM. */
async function startNode(
  root: string,
  dataDir: string,
): Promise<{ bootstrap: string; stop(): Promise<void> }> {
  const ports = { client: await freePort(), controller: await freePort(), http: await freePort() };
  const settings = [
    ...singleNodeSettings(ports, dataDir),
    "num.partitions=8",
    "log.retention.bytes=-1",
  ];
  const args = [join(root, "bin", "sluice.js"), "start", ...settings.flatMap((s) => ["--set", s])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  await listening(child);
  return {
    bootstrap: `127.0.0.1:${ports.client}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function listening(child: ChildProcess): Promise<void> {
  let output = "";
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no listening line:\n${output}`));
    }, START_DEADLINE_MS);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Sluice listening on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sluice exited with ${code}:\n${output}`));
    });
  });
}

/** Runs kcat, piping the file `input` if given; resolves when it exits 0. */
function kcat(args: readonly string[], input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const stdin = input === undefined ? "ignore" : "pipe";
    const child = spawn("kcat", [...args], { stdio: [stdin, "ignore", "inherit"] });
    if (input !== undefined && child.stdin !== null) createReadStream(input).pipe(child.stdin);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`kcat ${args.join(" ")} exited ${code}`)),
    );
  });
}

const produceArgs = (bootstrap: string, topic: string) =>
  ["-P", "-b", bootstrap, "-t", topic, "-K", "\t", "-X", "acks=1", "-X", "linger.ms=5"].concat([
    "-X",
    "batch.size=1000000",
    "-X",
    "queue.buffering.max.kbytes=1048576",
  ]);

interface Inputs {
  readonly folder: string;
  readonly files: { readonly [bytes: number]: { path: string; count: number } };
}

/** Files of "key\tvalue" lines: PRODUCE_MIB of 1 KiB ones, B2_RECORDS of 100 bytes. */
async function writeInputs(folder: string): Promise<Inputs> {
  const files: Record<number, { path: string; count: number }> = {};
  for (const bytes of [1024, 100]) {
    const count = bytes === 100 ? B2_RECORDS : (PRODUCE_MIB * MIB) / bytes;
    const value = "x".repeat(bytes - 8);
    const lines = Array.from({ length: count }, (_, index) => `k${index % 1000}\t${value}`);
    const path = join(folder, `input-${bytes}.txt`);
    await writeFile(path, lines.join("\n") + "\n");
    files[bytes] = { path, count };
  }
  await writeFile(join(folder, "one.txt"), "k\tv\n");
  return { folder, files };
}

/** records/s of a produce of the `bytes` input into a new 8-partition topic on a new node. */
async function produceOnce(root: string, inputs: Inputs, bytes: number): Promise<number> {
  const dataDir = await mkdtemp(join(inputs.folder, "node-"));
  const node = await startNode(root, dataDir);
  try {
    const input = inputs.files[bytes] as { path: string; count: number };
    await kcat(
      ["-P", "-b", node.bootstrap, "-t", "load", "-K", "\t"],
      join(inputs.folder, "one.txt"),
    );
    const start = performance.now();
    await kcat(produceArgs(node.bootstrap, "load"), input.path);
    return input.count / ((performance.now() - start) / 1000);
  } finally {
    await node.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** MiB/s of a kcat consumer reading the backlog in `dataDir` from its start to its end. */
async function catchUpOnce(root: string, dataDir: string): Promise<number> {
  const node = await startNode(root, dataDir);
  try {
    const start = performance.now();
    const args = ["-C", "-b", node.bootstrap, "-t", "backlog", "-o", "beginning", "-e", "-q"];
    await kcat(args.concat(["-f", "%o\\n", "-X", "fetch.max.bytes=52428800"]));
    return BACKLOG_MIB / ((performance.now() - start) / 1000);
  } finally {
    await node.stop();
  }
}

async function writeBacklog(inputs: Inputs): Promise<string> {
  const dataDir = await mkdtemp(join(inputs.folder, "backlog-"));
  const node = await startNode(THIS_ROOT, dataDir);
  try {
    const input = (inputs.files[1024] as { path: string }).path;
    for (let written = 0; written < BACKLOG_MIB; written += PRODUCE_MIB) {
      await kcat(produceArgs(node.bootstrap, "backlog"), input);
    }
  } finally {
    await node.stop();
  }
  return dataDir;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function runHotPaths(): Promise<BenchmarkResult[]> {
  const folder = await mkdtemp(join(process.env["BENCH_DIR"] ?? tmpdir(), "sluice-hot-"));
  try {
    const inputs = await writeInputs(folder);
    const backlog = await writeBacklog(inputs);
    const builds = COMPARE_ROOT === undefined ? [THIS_ROOT] : [COMPARE_ROOT, THIS_ROOT];
    const workloads = [
      {
        label: "B1 produce 1 KiB acks=1, 8 partitions",
        unit: "records/s",
        run: (root: string) => produceOnce(root, inputs, 1024),
      },
      {
        label: "B2 produce 100 B acks=1, 8 partitions",
        unit: "records/s",
        run: (root: string) => produceOnce(root, inputs, 100),
      },
      {
        label: `B12 catch-up from ${BACKLOG_MIB} MiB`,
        unit: "MiB/s",
        run: (root: string) => catchUpOnce(root, backlog),
      },
    ];
    const figures = workloads.map(() => builds.map((): number[] => []));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [buildIndex, root] of builds.entries()) {
        for (const [index, workload] of workloads.entries()) {
          figures[index]?.[buildIndex]?.push(await workload.run(root));
        }
      }
    }
    return workloads.flatMap((workload, index) => resultsOf(workload, figures[index] ?? []));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function resultsOf(
  workload: { readonly label: string; readonly unit: string },
  perBuild: readonly (readonly number[])[],
): BenchmarkResult[] {
  const medians = perBuild.map(median);
  if (medians.length === 1) {
    return [
      {
        label: `${workload.label}, median of ${ROUNDS}`,
        value: medians[0] as number,
        unit: workload.unit,
      },
    ];
  }
  const [compared, current] = medians as [number, number];
  return [
    { label: `${workload.label}, compared build, median`, value: compared, unit: workload.unit },
    { label: `${workload.label}, this build, median`, value: current, unit: workload.unit },
    { label: `${workload.label}, this build / compared`, value: current / compared, unit: "ratio" },
  ];
}

/** B1, B2 and B12, in the order they are printed. */
export const benchmarks: Benchmark[] = [{ name: "hot-paths", run: runHotPaths }];
