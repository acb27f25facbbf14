/**
 * The quorum controller on a committing metadata log: a single-voter RaftDriver on a real
 * temporary folder through the Node adapters, so every figure includes the log's appends and
 * fsyncs (there is no network: one voter commits alone). `create` times CreateTopics from submit
 * to commit; `broker death` times the work after a silent broker's session ends (the fence and
 * one PartitionChangeRecord per leadership it held), on a manual controller clock; `failover`
 * times a fresh controller start on a snapshot plus a log tail until it is active. The image
 * apply rate is bench/metadata.bench.ts's figure.
 *
 * Environment: BENCH_CONTROLLER_PARTITIONS (created and moved partitions, default 10000),
 * BENCH_FAILOVER_PARTITIONS (partitions in the failover image, default 100000), BENCH_DIR (where
 * the temporary folders are made).
 */
import { performance } from "node:perf_hooks";
import { ManualTimers } from "../src/controller/quorum/quorum.test-support.js";
import { ControllerOnDisk, inTemporaryFolder, realTime } from "./controller-on-disk.js";
import {
  PARTITIONS_PER_REQUEST,
  countPartitions,
  createPartitions,
  heartbeat,
  registerBrokers,
} from "./controller-requests.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

function positiveFromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

const result = (label: string, value: number, unit = "ms"): BenchmarkResult => ({
  label,
  value: Math.round(value),
  unit,
});

/** Creates the partitions on a fresh controller with three unfenced brokers. */
async function createBenchmark(): Promise<BenchmarkResult[]> {
  const partitions = positiveFromEnvironment("BENCH_CONTROLLER_PARTITIONS", 10_000);
  return inTemporaryFolder(async (dir) => {
    const node = await ControllerOnDisk.start(dir, realTime());
    try {
      await node.waitUntil("the controller is active", () => node.controller.isActive);
      await registerBrokers(node.controller);
      const start = performance.now();
      await createPartitions(node.controller, { prefix: "created", partitions });
      const elapsedMs = performance.now() - start;
      const created = countPartitions(node.controller.committedImage, () => true);
      if (created !== partitions) throw new Error(`${created} partitions, not ${partitions}`);
      return [
        result(`CreateTopics, ${partitions} partitions (RF 3), submit to committed`, elapsedMs),
        result("partitions created", partitions / (elapsedMs / 1000), "partitions/s"),
      ];
    } finally {
      await node.stop();
    }
  });
}

/**
 * Broker 1 leads every partition and goes silent; brokers 2 and 3 keep heartbeating on the
 * controller's manual clock. The clock then moves to the first liveness tick after broker 1's
 * session ended, and the real time from that tick to the commit of the fencing batch is the work.
 */
async function brokerDeathBenchmark(): Promise<BenchmarkResult[]> {
  const partitions = positiveFromEnvironment("BENCH_CONTROLLER_PARTITIONS", 10_000);
  return inTemporaryFolder(async (dir) => {
    const time = new ManualTimers();
    const node = await ControllerOnDisk.start(dir, { clock: time, timers: time });
    const controller = node.controller;
    try {
      await node.waitUntil("the controller is active", () => controller.isActive);
      const epochs = await registerBrokers(controller);
      await createPartitions(controller, { prefix: "led", partitions, leaderId: 1 });
      for (const [brokerId, brokerEpoch] of epochs)
        await heartbeat(controller, brokerId, brokerEpoch);
      const { sessionTimeoutMs } = controller.settings.cluster;
      const intervalMs = controller.settings.livenessScanIntervalMs;
      const deadlineMs = time.monotonicMs() + sessionTimeoutMs;
      // The ticks fire at multiples of the interval; a session ends once the deadline is past.
      const fenceTickMs = (Math.floor(deadlineMs / intervalMs) + 1) * intervalMs;
      for (let nowMs = intervalMs; nowMs < fenceTickMs; nowMs += intervalMs) {
        await time.advanceTo(nowMs);
        for (const brokerId of [2, 3])
          await heartbeat(controller, brokerId, epochs.get(brokerId) ?? -1);
      }
      if (countPartitions(controller.committedImage, (leader) => leader === 1) !== partitions) {
        throw new Error("broker 1 lost leaderships before its session ended");
      }
      const start = performance.now();
      await time.advanceTo(fenceTickMs);
      const isFenced = (): boolean =>
        controller.committedImage.cluster.brokers.get(1 as never)?.isFenced === true;
      await node.waitUntil("broker 1 is fenced", isFenced);
      const workMs = performance.now() - start;
      const left = countPartitions(controller.committedImage, (leader) => leader === 1);
      if (left !== 0) throw new Error(`broker 1 still leads ${left} partitions after its fence`);
      const scanDelayMs = fenceTickMs - deadlineMs;
      return [
        result("broker.session.timeout.ms (manual clock)", sessionTimeoutMs),
        result("liveness tick after the deadline (manual clock)", scanDelayMs),
        result(`fence + ${partitions} PartitionChangeRecords, tick to committed`, workMs),
        result("last heartbeat to leaderships moved", sessionTimeoutMs + scanDelayMs + workMs),
      ];
    } finally {
      await node.stop();
    }
  });
}

/**
 * Writes an image of `partitions` partitions: all but the tail through CreateTopics, then a
 * snapshot, then the tail's CreateTopics in the log after it. Returns the record counts.
 */
async function writeFailoverLog(
  dir: string,
  partitions: number,
): Promise<{ snapshotRecords: number; tailRecords: number }> {
  const tailPartitions = Math.min(PARTITIONS_PER_REQUEST, Math.ceil(partitions / 10));
  const node = await ControllerOnDisk.start(dir, realTime());
  const controller = node.controller;
  try {
    await node.waitUntil("the controller is active", () => controller.isActive);
    await registerBrokers(controller);
    const imagePartitions = partitions - tailPartitions;
    await createPartitions(controller, { prefix: "image", partitions: imagePartitions });
    const snapshotRecords = await node.snapshot();
    const snapshotOffset = controller.committedImage.provenance.lastContainedOffset;
    await createPartitions(controller, { prefix: "tail", partitions: tailPartitions });
    const tailRecords = controller.committedImage.provenance.lastContainedOffset - snapshotOffset;
    return { snapshotRecords, tailRecords };
  } finally {
    await node.stop();
  }
}

/** A fresh controller on the written log, timed from start until it is active. */
async function failoverBenchmark(): Promise<BenchmarkResult[]> {
  const partitions = positiveFromEnvironment("BENCH_FAILOVER_PARTITIONS", 100_000);
  return inTemporaryFolder(async (dir) => {
    const written = await writeFailoverLog(dir, partitions);
    const start = performance.now();
    const node = await ControllerOnDisk.start(dir, realTime());
    try {
      await node.waitUntil("the restarted controller is active", () => node.controller.isActive);
      const activeAt = performance.now();
      const loaded = countPartitions(node.controller.committedImage, () => true);
      if (loaded !== partitions) throw new Error(`${loaded} partitions loaded, not ${partitions}`);
      const loadedAt = node.seen.loadedAt ?? start;
      // A single voter's election timer runs from the node's start, so it may end during the load.
      const leaderAt = Math.max(node.seen.leaderAt ?? activeAt, loadedAt);
      return [
        result("records in the snapshot", written.snapshotRecords, "records"),
        result("records in the log after it", written.tailRecords, "records"),
        result("open log, read snapshot, build image", loadedAt - start),
        result("then wait for the single-voter election", leaderAt - loadedAt),
        result("then replay the log tail, commit activation", activeAt - leaderAt),
        result(`start to active, ${partitions} partitions`, activeAt - start),
      ];
    } finally {
      await node.stop();
    }
  });
}

/** The controller benchmarks, for bench/run.ts. */
export const benchmarks: Benchmark[] = [
  { name: "create", run: createBenchmark },
  { name: "broker death", run: brokerDeathBenchmark },
  { name: "failover", run: failoverBenchmark },
];
