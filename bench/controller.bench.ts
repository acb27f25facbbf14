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
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { CryptoRandom, NodeFileSystem, NodeTimers, SystemClock } from "../src/adapters/index.js";
import type { Uuid } from "../src/common/index.js";
import {
  METADATA_VERSION_LATEST,
  METADATA_VERSION_MIN,
  QuorumController,
  RaftDriverAdapter,
  brokerHeartbeatApi,
  brokerRegistrationApi,
  createTopicsApi,
  defaultQuorumControllerSettings,
} from "../src/controller/index.js";
import type { ControllerApi, ControllerRaftListener } from "../src/controller/index.js";
import { imageToRecords } from "../src/metadata/index.js";
import type { MetadataImage } from "../src/metadata/index.js";
import type { Clock, Logger, Timers } from "../src/ports/index.js";
import { encodeMetadataRecord } from "../src/protocol/index.js";
import { DEFAULT_RAFT_TIMINGS, RaftDriver } from "../src/raft/index.js";
import { MemoryMetricsSink } from "../sim/index.js";
import { requestBody } from "../src/controller/quorum/controller-harness.test-support.js";
import { ManualTimers } from "../src/controller/quorum/quorum.test-support.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const CLUSTER_ID = "Q29udHJvbGxlckJlbmNo";
const NODE_ID = 1;
const BROKER_IDS = [1, 2, 3] as const;
const PARTITIONS_PER_TOPIC = 100;
/** CreateTopics' own cap (PARTITIONS_PER_REQUEST_MAX): bigger images take several requests. */
const PARTITIONS_PER_REQUEST = 10_000;
const WAIT_TIMEOUT_MS = 120_000;
const METADATA_VERSIONS = {
  minSupportedVersion: METADATA_VERSION_MIN,
  maxSupportedVersion: METADATA_VERSION_LATEST,
};

function positiveFromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

const ignore = (): undefined => undefined;
const silent: Logger = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  child: () => silent,
};

/** A controller on a single-voter RaftDriver in `dir`; the driver has the real clock. */
class ControllerOnDisk {
  private fatalError: unknown;
  /** When (performance.now) a snapshot was loaded and this node first led, if it did. */
  readonly seen: { loadedAt?: number; leaderAt?: number } = {};

  private constructor(
    readonly controller: QuorumController,
    private readonly adapter: RaftDriverAdapter,
    private raft: RaftDriver | undefined,
  ) {}

  /** Starts the driver (which loads the latest snapshot) with a new controller listening. */
  static async start(
    dir: string,
    time: { readonly clock: Clock; readonly timers: Timers },
  ): Promise<ControllerOnDisk> {
    const adapter = new RaftDriverAdapter(NODE_ID);
    // The benchmark writes its snapshot itself; the controller's own triggers stay off.
    const settings = {
      ...defaultQuorumControllerSettings(CLUSTER_ID),
      maxBytesBetweenSnapshots: Number.MAX_SAFE_INTEGER,
      maxSnapshotIntervalMs: 0,
    };
    const controller = new QuorumController({
      ...time,
      raft: adapter,
      settings,
      random: new CryptoRandom(),
      logger: silent,
      metrics: new MemoryMetricsSink(),
    });
    const node = new ControllerOnDisk(controller, adapter, undefined);
    adapter.registerListener(node.timeline());
    const raft = await RaftDriver.start({
      config: raftConfig(),
      fs: new NodeFileSystem(),
      clock: new SystemClock(),
      timers: new NodeTimers({ unref: false }),
      random: new CryptoRandom(),
      logger: silent,
      metadataLogDir: dir,
      transport: { send: () => Promise.resolve(undefined) },
      listeners: [adapter],
      onFatalError: (error) => (node.fatalError = error),
    });
    node.raft = raft;
    adapter.attach({
      get leaderId() {
        return raft.status.leaderId;
      },
      get epoch() {
        return raft.status.epoch;
      },
      propose: (records) => raft.propose(records),
      createSnapshot: (request) => raft.createSnapshot(request),
    });
    return node;
  }

  /** Waits, turn by turn of the event loop, until `isDone()`; the metadata log must not fail. */
  async waitUntil(what: string, isDone: () => boolean): Promise<void> {
    const deadline = performance.now() + WAIT_TIMEOUT_MS;
    while (!isDone()) {
      if (this.fatalError !== undefined)
        throw new Error("the log failed", { cause: this.fatalError });
      if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await nextTurn();
    }
  }

  /** Writes a snapshot of the committed image, as the controller's ticks do. */
  async snapshot(): Promise<number> {
    const image = this.controller.committedImage;
    const records = imageToRecords(image).map((record) => encodeMetadataRecord(record));
    const endOffset = image.provenance.lastContainedOffset + 1;
    const result = await this.adapter.createSnapshot({
      endOffset,
      lastContainedLogTimestamp: Date.now(),
      records,
    });
    if (!result.ok) throw new Error(`the snapshot was not written: ${result.reason}`);
    return records.length;
  }

  /** Stops the controller and the driver without resigning, as a crash would. */
  async stop(): Promise<void> {
    await this.controller.stop();
    await this.raft?.stop();
  }

  private timeline(): ControllerRaftListener {
    return {
      handleCommit: () => undefined,
      handleLoadSnapshot: () => void (this.seen.loadedAt ??= performance.now()),
      handleLeaderChange: (change) => {
        if (change.leaderId === NODE_ID) this.seen.leaderAt ??= performance.now();
      },
    };
  }
}

function raftConfig(): Parameters<typeof RaftDriver.start>[0]["config"] {
  const endpoint = { name: "CONTROLLER", host: "127.0.0.1", port: 9093 };
  return {
    nodeId: NODE_ID,
    directoryId: "b".repeat(32) as Uuid,
    clusterId: CLUSTER_ID,
    listeners: [endpoint],
    bootstrapVoters: [{ id: NODE_ID, directoryId: null, endpoints: [endpoint] }],
    kraftVersion: 0,
    timings: DEFAULT_RAFT_TIMINGS,
  };
}

/** Sends one request to the controller as the controller listener would, decoded from bytes. */
function send(controller: QuorumController, api: ControllerApi, input: object): Promise<object> {
  const version = api.maxVersion;
  const body = requestBody(api.apiKey, version, input);
  const header = { apiKey: api.apiKey, apiVersion: version, correlationId: 1, clientId: "bench" };
  return api.handle(controller, {
    header: { ...header, taggedFields: [] },
    body,
    listenerName: "CONTROLLER",
  });
}

/** One heartbeat of a broker that has read the whole committed log. */
async function heartbeat(controller: QuorumController, brokerId: number, brokerEpoch: number) {
  const response = (await send(controller, brokerHeartbeatApi, {
    brokerId,
    brokerEpoch,
    currentMetadataOffset: controller.committedImage.provenance.lastContainedOffset,
    wantFence: false,
    wantShutDown: false,
    offlineLogDirs: [],
  })) as { errorCode: number; isFenced: boolean };
  if (response.errorCode !== 0 || response.isFenced) {
    throw new Error(`broker ${brokerId} heartbeat: error ${response.errorCode}, fenced`);
  }
}

/** Registers brokers 1 to 3 and heartbeats each until unfenced; returns their epochs. */
async function registerBrokers(controller: QuorumController): Promise<Map<number, number>> {
  const epochs = new Map<number, number>();
  for (const brokerId of BROKER_IDS) {
    const response = await send(controller, brokerRegistrationApi, {
      brokerId,
      clusterId: CLUSTER_ID,
      incarnationId: `c${brokerId.toString(16).padStart(31, "0")}`,
      listeners: [{ name: "PLAINTEXT", host: "localhost", port: 9092, securityProtocol: 0 }],
      features: [{ name: "metadata.version", ...METADATA_VERSIONS }],
      rack: null,
      logDirs: [`d${brokerId.toString(16).padStart(31, "0")}`],
    });
    const { errorCode, brokerEpoch } = response as { errorCode: number; brokerEpoch: number };
    if (errorCode !== 0) throw new Error(`broker ${brokerId} did not register: ${errorCode}`);
    await heartbeat(controller, brokerId, brokerEpoch);
    epochs.set(brokerId, brokerEpoch);
  }
  return epochs;
}

/**
 * Creates `partitions` partitions as topics of 100 with replication factor 3, one CreateTopics
 * request per 10,000 partitions, each waited for before the next. With `leaderId` every
 * partition is assigned to brokers 1 to 3 with that broker first (the preferred leader).
 */
async function createPartitions(
  controller: QuorumController,
  options: { readonly prefix: string; readonly partitions: number; readonly leaderId?: number },
): Promise<void> {
  const topicCount = Math.ceil(options.partitions / PARTITIONS_PER_TOPIC);
  const topicsPerRequest = PARTITIONS_PER_REQUEST / PARTITIONS_PER_TOPIC;
  for (let first = 0; first < topicCount; first += topicsPerRequest) {
    const topics = [];
    for (let topic = first; topic < Math.min(topicCount, first + topicsPerRequest); topic++) {
      const count = Math.min(
        PARTITIONS_PER_TOPIC,
        options.partitions - topic * PARTITIONS_PER_TOPIC,
      );
      topics.push(topicRequest(`${options.prefix}-${topic}`, count, options.leaderId));
    }
    const response = (await send(controller, createTopicsApi, {
      topics,
      timeoutMs: 60_000,
      validateOnly: false,
    })) as { topics: { name: string; errorCode: number; errorMessage: string | null }[] };
    const failed = response.topics.find((topic) => topic.errorCode !== 0);
    if (failed !== undefined) {
      throw new Error(`${failed.name}: error ${failed.errorCode} ${failed.errorMessage ?? ""}`);
    }
  }
}

function topicRequest(name: string, partitions: number, leaderId: number | undefined): object {
  if (leaderId === undefined) {
    return { name, numPartitions: partitions, replicationFactor: 3, assignments: [], configs: [] };
  }
  const brokerIds = [leaderId, ...BROKER_IDS.filter((id) => id !== leaderId)];
  const assignments = Array.from({ length: partitions }, (_, partitionIndex) => ({
    partitionIndex,
    brokerIds,
  }));
  return { name, numPartitions: -1, replicationFactor: -1, assignments, configs: [] };
}

function countPartitions(image: MetadataImage, isCounted: (leader: number) => boolean): number {
  let count = 0;
  for (const topic of image.topics.byId.values()) {
    for (const partition of topic.partitions.values()) if (isCounted(partition.leader)) count++;
  }
  return count;
}

/** Runs `work` on a fresh temporary folder, removed afterwards. */
async function inTemporaryFolder<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(process.env["BENCH_DIR"] ?? tmpdir(), "sluice-controller-"));
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const result = (label: string, value: number, unit = "ms"): BenchmarkResult => ({
  label,
  value: Math.round(value),
  unit,
});

const realTime = (): { clock: Clock; timers: Timers } => ({
  clock: new SystemClock(),
  timers: new NodeTimers({ unref: false }),
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
