/**
 * The `cluster` workload: 3 controllers (Raft voters running the QuorumController) and 5
 * brokers (Raft observers following the metadata log, running the broker lifecycle) on the
 * simulator. Per seed: bootstrap, wait until every broker is registered and unfenced, create a
 * few topics with replication factor 3 (some allowing unclean election), then a fault phase
 * (crashes and restarts of any node, pauses, lossy links, cuts, partitions, and brokers cut off
 * from every controller long enough to be fenced), then heal and quiesce. The checkers run on
 * every committed batch (ClusterChecker) and every Raft output (the Raft checker); at the end
 * every live node's image must equal the committed history's.
 */
import type { Uuid } from "../../src/common/index.js";
import type { ConfiguredVoter, RaftConfig } from "../../src/raft/index.js";
import { SimNetwork } from "../net/sim-network.js";
import { FaultInjector } from "../raft/fault-injector.js";
import { nodeName, simulatedTimings, type RaftEnvelope } from "../raft/settings.js";
import type { SeededRandom } from "../random.js";
import { Scheduler } from "../scheduler.js";
import { InvariantViolation, runSeedPhases, type SeedResult } from "../workloads/registry.js";
import { createTopic, type TopicSpec } from "./admin-client.js";
import { BrokerMember } from "./broker-member.js";
import { ClusterChecker } from "./cluster-checker.js";
import { ClusterProcess, ClusterRaftChecker, type AnyEnvelope } from "./cluster-process.js";
import { ControllerMember, simulatedControllerSettings } from "./controller-member.js";
import { BrokerIsolation, converged, membersOf } from "./cluster-state.js";
import {
  brokerIds,
  controllerIds,
  faultPhaseMs,
  quiesceBoundMs,
  setupBoundMs,
} from "./settings.js";

/** What one seed's run measured, when it passed. */
export interface ClusterRunReport {
  readonly isElrEnabled: boolean;
  readonly committedEndOffset: number;
  readonly leaderChanges: number;
  readonly uncleanElections: number;
  readonly summary: string;
}

/** One seed's result: its trace hash, and its report or the broken invariant. */
export type ClusterSeedResult = SeedResult<ClusterRunReport>;

function directoryOf(id: number): Uuid {
  return id.toString(16).padStart(2, "0").repeat(16) as Uuid;
}

function raftConfig(id: number): RaftConfig {
  const bootstrapVoters: ConfiguredVoter[] = controllerIds.map((voter) => ({
    id: voter,
    directoryId: directoryOf(voter),
    endpoints: [{ name: "CONTROLLER", host: nodeName(voter), port: 9093 }],
  }));
  return {
    nodeId: id,
    directoryId: directoryOf(id),
    clusterId: "sluice-sim",
    listeners: [{ name: "CONTROLLER", host: nodeName(id), port: 9093 }],
    bootstrapVoters,
    kraftVersion: 1,
    timings: simulatedTimings,
  };
}

function drawTopics(random: SeededRandom): TopicSpec[] {
  const count = random.between(2, 4);
  const topics: TopicSpec[] = [];
  for (let index = 0; index < count; index++) {
    topics.push({
      name: `topic-${index}`,
      numPartitions: random.between(1, 3),
      replicationFactor: 3,
      // The first topic is always clean and the second always unclean; the rest at random.
      isUncleanElectionEnabled: index === 0 ? false : index === 1 ? true : random.chance(0.5),
    });
  }
  return topics;
}

/** One seed's world. */
class ClusterSimulation {
  readonly scheduler: Scheduler;
  readonly network: SimNetwork<AnyEnvelope>;
  readonly checker = new ClusterChecker();
  readonly raftChecker = new ClusterRaftChecker();
  readonly random: SeededRandom;
  readonly isElrEnabled: boolean;
  readonly processes: ClusterProcess[] = [];

  constructor(seed: number) {
    this.scheduler = new Scheduler({ seed });
    this.network = new SimNetwork<AnyEnvelope>(this.scheduler);
    this.random = this.scheduler.random.fork("cluster-workload");
    this.isElrEnabled = this.random.chance(0.5);
    const settings = simulatedControllerSettings(this.isElrEnabled);
    const world = {
      scheduler: this.scheduler,
      // Raft's side reads only its own envelopes; the process routes the brokers' elsewhere.
      network: this.network as SimNetwork<AnyEnvelope> & SimNetwork<RaftEnvelope>,
      checker: this.raftChecker,
      processes: this.processes,
    };
    for (const id of controllerIds) {
      const create = (process: ClusterProcess): ControllerMember =>
        new ControllerMember(process, world, settings, this.checker);
      this.processes.push(new ClusterProcess(id, raftConfig(id), world, create));
    }
    for (const id of brokerIds) {
      const create = (process: ClusterProcess): BrokerMember =>
        new BrokerMember(process, world, this.checker);
      this.processes.push(new ClusterProcess(id, raftConfig(id), world, create));
    }
  }

  get controllers(): ClusterProcess[] {
    return this.processes.filter((process) => controllerIds.includes(process.id));
  }

  /** Restarts every crashed process and ends every pause. */
  healProcesses(): void {
    for (const process of this.processes) {
      if (process.isUp) process.resume();
      else process.restart();
    }
  }
}

/**
 * Runs one seed. A broken invariant (a checker's InvariantViolation, or an assertion anywhere in
 * the code under test) ends the run and is reported with the latest trace lines.
 */
export async function runClusterSeed(seed: number): Promise<ClusterSeedResult> {
  const simulation = new ClusterSimulation(seed);
  return runSeedPhases(simulation.scheduler, () => runPhases(simulation));
}

async function setUp(simulation: ClusterSimulation): Promise<TopicSpec[]> {
  const { scheduler } = simulation;
  for (const process of simulation.processes) process.start();
  const deadlineMs = scheduler.nowMs() + setupBoundMs;
  const isReady = await scheduler.runUntil(
    () => converged(simulation.processes, simulation.checker, { requireSameImages: false }),
    deadlineMs,
  );
  if (!isReady) {
    throw new InvariantViolation(
      `liveness: the brokers were not unfenced within ${setupBoundMs} ms`,
    );
  }
  const topics = drawTopics(simulation.random);
  for (const topic of topics) {
    const controllers = simulation.controllers;
    if (!(await createTopic({ scheduler, controllers, topic, deadlineMs }))) {
      throw new InvariantViolation(`liveness: topic ${topic.name} was not created in time`);
    }
  }
  return topics;
}

async function runPhases(simulation: ClusterSimulation): Promise<ClusterRunReport> {
  const { scheduler, checker, random } = simulation;
  const topics = await setUp(simulation);
  const network = simulation.network as SimNetwork<AnyEnvelope> & SimNetwork<RaftEnvelope>;
  const faults = new FaultInjector(scheduler, network, simulation.processes, random.fork("faults"));
  const isolation = new BrokerIsolation(scheduler, network, random.fork("isolation"));
  faults.start({ min: 60, max: 400 });
  isolation.start();
  await scheduler.runFor(random.between(faultPhaseMs.min, faultPhaseMs.max));
  isolation.stop();
  faults.stop();
  simulation.healProcesses();
  const isQuiet = await scheduler.runUntil(
    () => converged(simulation.processes, checker, { requireSameImages: true }),
    scheduler.nowMs() + quiesceBoundMs,
  );
  if (!isQuiet) {
    throw new InvariantViolation(
      `convergence: the cluster did not settle within ${quiesceBoundMs} ms of the heal`,
    );
  }
  checker.checkConverged(membersOf(simulation.processes));
  const summary =
    `elr=${simulation.isElrEnabled} topics=${topics.length} ` +
    `committed=${checker.committedEndOffset} leaderChanges=${checker.leaderChanges} ` +
    `unclean=${checker.uncleanElections} isolations=${isolation.count}`;
  return {
    isElrEnabled: simulation.isElrEnabled,
    committedEndOffset: checker.committedEndOffset,
    leaderChanges: checker.leaderChanges,
    uncleanElections: checker.uncleanElections,
    summary,
  };
}
