import { test } from "node:test";
import assert from "node:assert/strict";
import type { Logger, Timer } from "../ports/index.js";
import { SimWorld, type SimNode } from "../../sim/index.js";
import {
  DEFAULT_RAFT_TIMINGS,
  type RaftConfig,
  type RaftRequest,
  type RaftResponse,
} from "./index.js";
import type { RaftTransport } from "./raft-driver-options.js";
import { RaftDriver } from "./raft.driver.js";
import type { CommittedRecords, SnapshotRecords } from "./log/commit-delivery.driver.js";

type Message =
  | { kind: "request"; id: number; request: RaftRequest }
  | { kind: "response"; id: number; response: RaftResponse };

const silent: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
};

const REQUEST_TIMEOUT_MS = 2000;

/** A state machine that keeps every committed value, replaced wholesale by a snapshot. */
class Recorder {
  values: string[] = [];
  snapshotsLoaded = 0;
  handleCommit(batch: CommittedRecords): void {
    for (const value of batch.records) this.values.push(new TextDecoder().decode(value));
  }
  handleLoadSnapshot(snapshot: SnapshotRecords): void {
    this.snapshotsLoaded += 1;
    this.values = snapshot.records.map((value) => new TextDecoder().decode(value));
  }
}

/** Three drivers on the simulator: messages over faulty-capable links, one disk each. */
class SimCluster {
  readonly world: SimWorld<Message>;
  readonly drivers = new Map<number, RaftDriver>();
  readonly recorders = new Map<number, Recorder>();
  private readonly answerers = new Map<
    number,
    (id: number, request: RaftRequest, from: number) => void
  >();
  private readonly waiting = new Map<string, (response: RaftResponse | undefined) => void>();
  private nextId = 1;

  constructor(
    seed: number,
    readonly ids: readonly number[],
  ) {
    this.world = new SimWorld<Message>({ seed, disk: { crash: { keepUnsyncedProbability: 0 } } });
    for (const id of ids) this.world.node(name(id));
  }

  config(id: number): RaftConfig {
    return {
      nodeId: id,
      directoryId: String(id).padStart(2, "0").repeat(16) as RaftConfig["directoryId"],
      clusterId: "driver-test",
      listeners: [{ name: "CONTROLLER", host: name(id), port: 9093 }],
      bootstrapVoters: this.ids.map((voter) => ({
        id: voter,
        directoryId: null,
        endpoints: [{ name: "CONTROLLER", host: name(voter), port: 9093 }],
      })),
      kraftVersion: 0,
      timings: { ...DEFAULT_RAFT_TIMINGS, appendLingerMs: 5 },
    };
  }

  async start(id: number): Promise<void> {
    const node = this.world.node(name(id));
    const recorder = new Recorder();
    this.recorders.set(id, recorder);
    // A crash makes the network forget the node's handler, so each start sets it again.
    this.world.network.onMessage(name(id), (message, from) => this.receive(id, message, from));
    const driver = await this.settle(
      RaftDriver.start({
        config: this.config(id),
        fs: this.world.disk(name(id)),
        clock: node.clock,
        timers: node.timers,
        random: node.random,
        logger: silent,
        metadataLogDir: "/data/meta",
        transport: this.transport(id, node),
        listeners: [recorder],
        segmentBytes: 4096,
        onFatalError: (error) => assert.fail(`node ${id} failed: ${String(error)}`),
      }),
    );
    this.drivers.set(id, driver);
    this.answerers.set(id, (requestId, request, from) => {
      driver.answer(request, from).then(
        (response) =>
          this.world.network.send(name(id), name(from), {
            kind: "response",
            id: requestId,
            response,
          }),
        () => undefined,
      );
    });
  }

  crash(id: number): void {
    this.world.node(name(id)).crash();
    this.drivers.delete(id);
    this.answerers.delete(id);
  }

  async restart(id: number): Promise<void> {
    this.world.node(name(id)).restart();
    await this.start(id);
  }

  driver(id: number): RaftDriver {
    const driver = this.drivers.get(id);
    assert.ok(driver !== undefined, `node ${id} runs`);
    return driver;
  }

  leader(): RaftDriver | undefined {
    return [...this.drivers.values()].find((driver) => driver.status.role === "leader");
  }

  async waitFor(predicate: () => boolean, withinMs = 30_000): Promise<void> {
    const deadline = this.world.scheduler.nowMs() + withinMs;
    const met = await this.world.scheduler.runUntil(predicate, deadline);
    if (!met)
      for (const [id, d] of this.drivers)
        console.log(
          id,
          d.status.role,
          d.status.epoch,
          d.status.leaderId,
          d.status.highWatermark,
          d.status.logStartOffset,
          d.status.logEndOffset,
          d.status.deliveredEndOffset,
          this.recorders.get(id)?.values.length,
        );
    assert.ok(met, "the condition held within the simulated deadline");
  }

  settle<T>(work: Promise<T>): Promise<T> {
    let outcome: { value: T } | { error: unknown } | undefined;
    work.then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { error }),
    );
    return this.waitFor(() => outcome !== undefined).then(() => {
      assert.ok(outcome !== undefined);
      if ("error" in outcome) throw outcome.error;
      return outcome.value;
    });
  }

  /** Proposes through the current leader until the values are accepted. */
  async propose(values: readonly string[]): Promise<void> {
    await this.waitFor(() => this.leader() !== undefined);
    const records = values.map((value) => new TextEncoder().encode(value));
    const result = await this.settle((this.leader() as RaftDriver).propose(records));
    assert.equal(result.kind, "accepted");
  }

  private transport(id: number, node: SimNode): RaftTransport {
    return {
      send: (destinationId, request) =>
        new Promise((resolve) => {
          const requestId = this.nextId++;
          const key = `${id}:${requestId}`;
          let timer: Timer | undefined = undefined;
          this.waiting.set(key, (response) => {
            timer?.cancel();
            this.waiting.delete(key);
            resolve(response);
          });
          timer = node.timers.schedule(REQUEST_TIMEOUT_MS, () =>
            this.waiting.get(key)?.(undefined),
          );
          this.world.network.send(name(id), name(destinationId), {
            kind: "request",
            id: requestId,
            request,
          });
        }),
    };
  }

  private receive(id: number, message: Message, from: string): void {
    const fromId = Number(from.slice(1));
    if (message.kind === "request") this.answerers.get(id)?.(message.id, message.request, fromId);
    else this.waiting.get(`${id}:${message.id}`)?.(message.response);
  }
}

function name(id: number): string {
  return `n${id}`;
}

test("three drivers elect a leader and every node receives the committed proposals", async () => {
  const cluster = new SimCluster(11, [1, 2, 3]);
  for (const id of cluster.ids) await cluster.start(id);
  await cluster.propose(["a", "b"]);
  await cluster.propose(["c"]);
  await cluster.waitFor(() =>
    cluster.ids.every((id) => cluster.recorders.get(id)?.values.length === 3),
  );
  for (const id of cluster.ids)
    assert.deepEqual(cluster.recorders.get(id)?.values, ["a", "b", "c"]);
  const leader = cluster.leader() as RaftDriver;
  assert.ok(leader.status.flushCount > 0, "the leader made its appends durable");
});

test("a crashed leader is replaced and committed records survive its restart", async () => {
  const cluster = new SimCluster(23, [1, 2, 3]);
  for (const id of cluster.ids) await cluster.start(id);
  await cluster.propose(["one", "two"]);
  await cluster.waitFor(() =>
    cluster.ids.every((id) => cluster.recorders.get(id)?.values.length === 2),
  );
  const oldLeader = cluster.ids.find((id) => cluster.driver(id).status.role === "leader") as number;
  const oldEpoch = cluster.driver(oldLeader).status.epoch;
  cluster.crash(oldLeader);
  await cluster.waitFor(
    () =>
      cluster.leader() !== undefined && (cluster.leader() as RaftDriver).status.epoch > oldEpoch,
  );
  await cluster.propose(["three"]);
  await cluster.restart(oldLeader);
  await cluster.waitFor(() => cluster.recorders.get(oldLeader)?.values.length === 3);
  for (const id of cluster.ids) {
    await cluster.waitFor(() => cluster.recorders.get(id)?.values.length === 3);
    assert.deepEqual(cluster.recorders.get(id)?.values, ["one", "two", "three"]);
  }
});

test("a node that missed records behind a snapshot installs it from the leader", async () => {
  const cluster = new SimCluster(37, [1, 2, 3]);
  for (const id of cluster.ids) await cluster.start(id);
  await cluster.propose(["x0"]);
  const leaderId = cluster.ids.find((id) => cluster.driver(id).status.role === "leader") as number;
  const lagging = cluster.ids.find((id) => id !== leaderId) as number;
  cluster.crash(lagging);
  for (let round = 0; round < 20; round++)
    await cluster.propose([`x${round + 1}`, "pad".repeat(40)]);
  const leader = cluster.driver(leaderId);
  await cluster.waitFor(() => leader.status.deliveredEndOffset === leader.status.logEndOffset);
  const recorder = cluster.recorders.get(leaderId) as Recorder;
  const snapshot = await cluster.settle(
    leader.createSnapshot({
      endOffset: leader.status.deliveredEndOffset,
      lastContainedLogTimestamp: cluster.world.scheduler.nowMs(),
      records: recorder.values.map((value) => new TextEncoder().encode(value)),
    }),
  );
  assert.ok(snapshot.ok);
  assert.equal(leader.status.logStartOffset, snapshot.snapshot.snapshotId.endOffset);
  await cluster.propose(["after"]);
  await cluster.restart(lagging);
  const expected = [...recorder.values];
  await cluster.waitFor(() => cluster.recorders.get(lagging)?.values.length === expected.length);
  const caughtUp = cluster.recorders.get(lagging) as Recorder;
  assert.equal(caughtUp.snapshotsLoaded, 1, "the lagging node loaded the leader's snapshot");
  assert.deepEqual(caughtUp.values, expected);
});

test("a graceful shutdown of the leader hands leadership to another voter", async () => {
  const cluster = new SimCluster(41, [1, 2, 3]);
  for (const id of cluster.ids) await cluster.start(id);
  await cluster.propose(["v"]);
  const leaderId = cluster.ids.find((id) => cluster.driver(id).status.role === "leader") as number;
  const epoch = cluster.driver(leaderId).status.epoch;
  await cluster.settle(cluster.driver(leaderId).shutdown());
  cluster.drivers.delete(leaderId);
  await cluster.waitFor(() => cluster.leader() !== undefined);
  assert.ok((cluster.leader() as RaftDriver).status.epoch > epoch);
});

test("a driver refuses a proposal at a wrong base offset and keeps one at the right", async () => {
  const cluster = new SimCluster(31, [1, 2, 3]);
  for (const id of cluster.ids) await cluster.start(id);
  await cluster.waitFor(() => cluster.leader() !== undefined);
  const leader = cluster.leader() as RaftDriver;
  const encode = (value: string) => [new TextEncoder().encode(value)];
  const stale = await cluster.settle(leader.propose(encode("stale"), { requiredBaseOffset: 0 }));
  assert.deepEqual(stale, { kind: "refused", reason: "offsetMismatch", nextOffset: 1 });
  const placed = await cluster.settle(leader.propose(encode("placed"), { requiredBaseOffset: 1 }));
  assert.equal(placed.kind === "accepted" ? placed.baseOffset : placed.reason, 1);
  const isDelivered = (id: number) => cluster.recorders.get(id)?.values[0] === "placed";
  await cluster.waitFor(() => cluster.ids.every(isDelivered));
});
