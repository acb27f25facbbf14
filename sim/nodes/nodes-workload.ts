/**
 * The `nodes` workload: three combined Sluice nodes, or three controllers and three brokers, as
 * the seed draws, each built by the production composition root (sim-nodes.ts) on the
 * simulator's ports; a replicated topic (replication factor 3, min.insync.replicas 2);
 * producers with acks=all, acks=1 and an idempotent one that retries every batch until it is
 * acknowledged, a reader, a client committing a group's offsets through the group coordinator,
 * and an operator asking for preferred leader elections, all speaking the Kafka protocol over
 * the simulated network. Per seed: start the nodes and create the topic, then a fault phase
 * (the swarm of node-faults.ts), then heal: every node up, every partition led with its whole
 * ISR, and one more acks=all write acknowledged. Finally the log is read back from the leaders
 * and the history judged by the independent checker.
 */
import { createTopics } from "../../src/protocol/index.js";
import { settle } from "../settle.js";
import { InvariantViolation, runSeedPhases, type SeedResult } from "../workloads/registry.js";
import { SimWorld } from "../world.js";
import { checkHistory, type CheckReport } from "./nodes-checker.js";
import { History, partitionKey } from "./history.js";
import { startPreferredElections } from "./admin-worker.js";
import { OFFSETS_PARTITIONS, startCommitter } from "./committer.js";
import { startIdempotentProducer } from "./idempotent-producer.js";
import { NodeFaults, type Fault } from "./node-faults.js";
import { SimClient } from "./sim-client.js";
import {
  brokerNodeSettings,
  combinedNodeSettings,
  controllerNodeSettings,
  hostOf,
  SimulatedNode,
} from "./sim-nodes.js";
import { clusterOf, partitionsOf } from "./wire.js";
import { readAll, startProducer, startReader, type WorkerContext } from "./workers.js";

/** The voters: combined nodes, or controllers beside brokers 4-6. */
const VOTER_IDS = [1, 2, 3];
const SEPARATE_BROKER_IDS = [4, 5, 6];
const TOPIC = "events";

/** Failures noticed within seconds, as the multi-process tests set them. */
const NODE_SETTINGS = {
  "broker.session.timeout.ms": "3000",
  "broker.heartbeat.interval.ms": "500",
  "controller.quorum.fetch.timeout.ms": "1000",
  "replica.lag.time.max.ms": "3000",
  "offsets.topic.num.partitions": String(OFFSETS_PARTITIONS),
};

export interface NodesRunReport extends CheckReport {
  readonly isElrEnabled: boolean;
  readonly isSeparated: boolean;
  readonly faultCounts: ReadonlyMap<string, number>;
  readonly summary: string;
}

/** One seed's world: the nodes, the clients, the history. */
class NodesSimulation {
  readonly world: SimWorld;
  readonly nodes: SimulatedNode[];
  readonly history = new History();
  readonly partitionCount: number;
  /** Whether controllers and brokers are separate processes (else three combined nodes). */
  readonly isSeparated: boolean;
  /** The nodes with the broker role, which clients talk to. */
  readonly brokerIds: readonly number[];
  /** Whether the cluster is formatted with eligible leader replicas (KIP-966). */
  readonly isElrEnabled: boolean;

  constructor(readonly seed: number) {
    this.world = new SimWorld({ seed });
    const random = this.world.scheduler.random.fork("nodes-workload");
    this.partitionCount = random.between(1, 3);
    this.isElrEnabled = random.chance(0.5);
    this.isSeparated = random.chance(0.5);
    this.brokerIds = this.isSeparated ? SEPARATE_BROKER_IDS : VOTER_IDS;
    const node = (id: number, settings: Record<string, string>) =>
      new SimulatedNode(id, this.world.node(hostOf(id)), this.world, settings);
    this.nodes = this.isSeparated
      ? [
          ...VOTER_IDS.map((id) => node(id, controllerNodeSettings(id, VOTER_IDS, NODE_SETTINGS))),
          ...this.brokerIds.map((id) => node(id, brokerNodeSettings(id, VOTER_IDS, NODE_SETTINGS))),
        ]
      : VOTER_IDS.map((id) => node(id, combinedNodeSettings(id, VOTER_IDS, NODE_SETTINGS)));
  }

  context(name: string): WorkerContext {
    const client = new SimClient(this.world, name);
    const random = this.world.scheduler.random.fork(`client/${name}`);
    const { history, partitionCount } = this;
    const nodeIds = this.brokerIds;
    return { client, history, nodeIds, topic: TOPIC, partitionCount, random };
  }
}

/** One seed's result, with the faults it ran. */
export type NodesSeedResult = SeedResult<NodesRunReport> & { readonly faults: readonly Fault[] };

/** Runs one seed; with `replay`, its fault phase runs exactly those faults instead of drawing. */
export async function runNodesSeed(
  seed: number,
  replay?: readonly Fault[],
): Promise<NodesSeedResult> {
  const simulation = new NodesSimulation(seed);
  const ran: { faults: readonly Fault[] } = { faults: [] };
  const result = await runSeedPhases(simulation.world.scheduler, () =>
    runPhases(simulation, { replay, ran }),
  );
  return { ...result, faults: ran.faults };
}

async function setUp(simulation: NodesSimulation): Promise<void> {
  const { world, nodes } = simulation;
  const deadline = world.scheduler.nowMs() + 60_000;
  if (simulation.isElrEnabled) {
    await settle(world.scheduler, Promise.all(nodes.map((node) => node.formatWithElr())), deadline);
  }
  await settle(world.scheduler, Promise.all(nodes.map((node) => node.start())), deadline);
  const admin = simulation.context("admin").client;
  const topic = {
    name: TOPIC,
    numPartitions: simulation.partitionCount,
    replicationFactor: 3,
    configs: [{ name: "min.insync.replicas", value: "2" }],
  };
  const created = await settle(
    world.scheduler,
    admin.call(
      simulation.brokerIds[0] ?? 1,
      createTopics,
      { topics: [topic], timeoutMs: 10_000 },
      7,
    ),
    deadline,
  );
  const errorCode = created.kind === "response" ? created.body.topics[0]?.errorCode : undefined;
  if (errorCode !== 0) {
    throw new InvariantViolation(`liveness: ${TOPIC} was not created: ${JSON.stringify(created)}`);
  }
}

async function runPhases(
  simulation: NodesSimulation,
  options: { readonly replay: readonly Fault[] | undefined; ran: { faults: readonly Fault[] } },
): Promise<NodesRunReport> {
  const { world } = simulation;
  const random = world.scheduler.random.fork("phases");
  await setUp(simulation);
  const elections = startPreferredElections(simulation.context("operator"));
  const workers = [
    elections,
    startProducer(simulation.context("producer-all"), -1),
    startProducer(simulation.context("producer-all-2"), -1),
    startProducer(simulation.context("producer-one"), 1),
    startIdempotentProducer(simulation.context("producer-idempotent")),
    startReader(simulation.context("reader")),
    startCommitter(simulation.context("committer"), "group-0"),
  ];
  const faults = new NodeFaults(world, simulation.nodes, random.fork("faults"), {
    gapMs: { min: 300, max: 2000 },
    // Power cuts stay out of the mix, with ELR too (see node-faults.ts and docs/simulation.md).
    hasPowerCuts: false,
    ...(options.replay === undefined ? {} : { replay: options.replay }),
  });
  options.ran.faults = faults.schedule;
  faults.start();
  await world.scheduler.runFor(random.between(10_000, 20_000));
  faults.stop();
  faults.healAll();
  await healed(simulation);
  for (const worker of workers) worker.stop();
  await settle(world.scheduler, Promise.all(workers.map((worker) => worker.done)));
  const reader = simulation.context("final-reader");
  const logs = await settle(
    world.scheduler,
    readAll({ ...reader, partitionCount: simulation.partitionCount }, simulation.brokerIds[0] ?? 1),
  );
  if (logs === undefined) throw new InvariantViolation("liveness: the final read failed");
  checkAssertions(simulation);
  const keyed = new Map(
    [...logs].map(([partition, records]) => [partitionKey(TOPIC, partition), records]),
  );
  const report = checkHistory(simulation.history, keyed);
  const faultCounts = [...faults.counts].map(([kind, count]) => `${kind}=${count}`).join(" ");
  const summary =
    `${simulation.isSeparated ? "separate" : "combined"} elr=${simulation.isElrEnabled} ` +
    `partitions=${simulation.partitionCount} ` +
    `acked=${report.acknowledged} ` +
    `failed=${report.failed} open=${report.undetermined} read=${report.recordsRead} ` +
    `final=${report.finalRecords} commits=${report.offsetsCommitted} ` +
    `elections=${elections.count()} ${faultCounts}`;
  const { isElrEnabled, isSeparated } = simulation;
  return { ...report, isElrEnabled, isSeparated, faultCounts: faults.counts, summary };
}

/**
 * The liveness phase: within a bound after the heal, every node is up and every partition has
 * a leader and its whole ISR on every node's view, and an acks=all write is acknowledged again.
 */
async function healed(simulation: NodesSimulation): Promise<void> {
  const { world } = simulation;
  const probe = simulation.context("probe").client;
  const acknowledgedBefore = simulation.history.acknowledgedCount();
  const isWhole = async (): Promise<boolean> => {
    if (simulation.nodes.some((node) => node.running === undefined)) return false;
    for (const nodeId of simulation.brokerIds) {
      const partitions = await partitionsOf(probe, nodeId, TOPIC);
      if (partitions === undefined || partitions.size !== simulation.partitionCount) return false;
      for (const state of partitions.values()) {
        if (state.leader < 0 || state.isr.length !== simulation.brokerIds.length) return false;
      }
    }
    return simulation.history.acknowledgedCount() > acknowledgedBefore;
  };
  const deadline = world.scheduler.nowMs() + 60_000;
  while (world.scheduler.nowMs() + 1000 < deadline) {
    if (await settle(world.scheduler, isWhole(), deadline)) return;
    await settle(world.scheduler, probe.pause(200), deadline);
  }
  const views = [];
  for (const node of simulation.nodes) {
    const running = node.running === undefined ? "down" : "up";
    const view = await settle(world.scheduler, clusterOf(probe, node.nodeId, TOPIC));
    const partitions = JSON.stringify([...(view?.partitions ?? [])]);
    views.push(`n${node.nodeId} ${running}, brokers ${view?.brokers.join(",")}: ${partitions}`);
  }
  checkAssertions(simulation);
  throw new InvariantViolation(
    `liveness: the cluster did not heal within 60 s of the heal: ${views.join("; ")}`,
  );
}

/** Fails the run when a node broke an assertion (a bug of the node, whatever the faults). */
function checkAssertions(simulation: NodesSimulation): void {
  for (const node of simulation.nodes) {
    const broken = node.brokenAssertion;
    if (broken !== undefined) {
      throw new InvariantViolation(`n${node.nodeId} broke an assertion: ${broken.message}`);
    }
  }
}
