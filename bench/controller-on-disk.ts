/**
 * The controller the controller benchmarks measure: a QuorumController on a single-voter
 * RaftDriver in a real temporary folder through the Node adapters, so every figure includes the
 * log's appends and fsyncs. There is no network: one voter commits alone.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { CryptoRandom, NodeFileSystem, NodeTimers, SystemClock } from "../src/adapters/index.js";
import type { Uuid } from "../src/common/index.js";
import {
  QuorumController,
  RaftDriverAdapter,
  defaultQuorumControllerSettings,
} from "../src/controller/index.js";
import type { ControllerRaftListener } from "../src/controller/index.js";
import { imageToRecords } from "../src/metadata/index.js";
import type { Clock, Logger, Timers } from "../src/ports/index.js";
import { encodeMetadataRecord } from "../src/protocol/index.js";
import { DEFAULT_RAFT_TIMINGS, RaftDriver } from "../src/raft/index.js";
import { MemoryMetricsSink } from "../sim/index.js";

/** The cluster id of every benchmark controller and of the brokers that register with it. */
export const CLUSTER_ID = "Q29udHJvbGxlckJlbmNo";
/** The node id of the single voter, which is also the controller. */
export const NODE_ID = 1;
const WAIT_TIMEOUT_MS = 120_000;

const ignore = (): undefined => undefined;
const silent: Logger = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  child: () => silent,
};

/** A controller on a single-voter RaftDriver in `dir`; the driver has the real clock. */
export class ControllerOnDisk {
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
      voterIds: () => raft.status.voterIds,
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

/** The real clock and timers, for the benchmarks that do not steer time themselves. */
export const realTime = (): { clock: Clock; timers: Timers } => ({
  clock: new SystemClock(),
  timers: new NodeTimers({ unref: false }),
});

/** Runs `work` on a fresh temporary folder (under BENCH_DIR if set), removed afterwards. */
export async function inTemporaryFolder<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(process.env["BENCH_DIR"] ?? tmpdir(), "sluice-controller-"));
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
