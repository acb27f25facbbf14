/**
 * The `raft` workload: 3 or 5 voters and 1 or 2 observers (chosen by the seed) run pure
 * RaftNodes on the simulator; a fault phase crashes, pauses and partitions them while a client
 * proposes and nodes take snapshots; then the network heals with a majority up, and the time
 * until a fresh proposal commits is measured against a bound; after a quiet time every live node
 * must hold the whole committed history. The checker runs on every output throughout.
 */
import type { Uuid } from "../../src/common/index.js";
import type { ConfiguredVoter, RaftConfig } from "../../src/raft/index.js";
import { SimNetwork } from "../net/sim-network.js";
import type { SeededRandom } from "../random.js";
import { Scheduler } from "../scheduler.js";
import { InvariantViolation, runSeedPhases, type SeedResult } from "../workloads/registry.js";
import { RaftChecker } from "./checker.js";
import { FaultInjector } from "./fault-injector.js";
import { ProposalClient } from "./proposal-client.js";
import { RaftProcess } from "./raft-process.js";
import {
  faultPhaseMs,
  livenessBoundMs,
  nodeName,
  quietPhaseMs,
  simulatedTimings,
  type RaftEnvelope,
} from "./settings.js";

/** The shape of one seed's cluster. */
export interface RaftClusterShape {
  readonly voterCount: 3 | 5;
  readonly observerCount: 1 | 2;
  readonly kraftVersion: 0 | 1;
}

/** What one seed's run measured, when it passed. */
export interface RaftRunReport {
  readonly shape: RaftClusterShape;
  readonly livenessMs: number;
  readonly committedEndOffset: number;
  readonly leadersElected: number;
  readonly summary: string;
}

/** A fixed directory id per node id, so a restarted node keeps its identity. */
function directoryOf(id: number): Uuid {
  return id.toString(16).padStart(2, "0").repeat(16) as Uuid;
}

function buildConfig(id: number, shape: RaftClusterShape): RaftConfig {
  const bootstrapVoters: ConfiguredVoter[] = [];
  for (let voter = 1; voter <= shape.voterCount; voter++) {
    bootstrapVoters.push({
      id: voter,
      directoryId: shape.kraftVersion === 1 ? directoryOf(voter) : null,
      endpoints: [{ name: "CONTROLLER", host: nodeName(voter), port: 9093 }],
    });
  }
  return {
    nodeId: id,
    directoryId: directoryOf(id),
    clusterId: "sluice-sim",
    listeners: [{ name: "CONTROLLER", host: nodeName(id), port: 9093 }],
    bootstrapVoters,
    kraftVersion: shape.kraftVersion,
    timings: simulatedTimings,
  };
}

function drawShape(random: SeededRandom): RaftClusterShape {
  return {
    voterCount: random.chance(0.5) ? 3 : 5,
    observerCount: random.chance(0.5) ? 1 : 2,
    kraftVersion: random.chance(0.5) ? 1 : 0,
  };
}

/** One seed's world: scheduler, network, checker and processes. */
class RaftSimulation {
  readonly scheduler: Scheduler;
  readonly network: SimNetwork<RaftEnvelope>;
  readonly checker = new RaftChecker();
  readonly random: SeededRandom;
  readonly shape: RaftClusterShape;
  readonly processes: RaftProcess[] = [];
  readonly client: ProposalClient;
  private isProposing = false;

  constructor(seed: number) {
    // The nodes are pure and the driver synchronous: no promise needs microtask turns.
    this.scheduler = new Scheduler({ seed, microtaskTurns: 0 });
    this.network = new SimNetwork<RaftEnvelope>(this.scheduler);
    this.random = this.scheduler.random.fork("raft-workload");
    this.shape = drawShape(this.random);
    const total = this.shape.voterCount + this.shape.observerCount;
    for (let id = 1; id <= total; id++) {
      this.processes.push(new RaftProcess(id, buildConfig(id, this.shape), this));
    }
    const voters = this.processes.slice(0, this.shape.voterCount);
    this.client = new ProposalClient(voters, this.random.fork("client"), this.checker);
  }

  /** Proposes every `gapMs.min`..`gapMs.max` until `stopProposals`. */
  startProposals(gapMs: { readonly min: number; readonly max: number }): void {
    this.isProposing = true;
    const random = this.random.fork(`proposals/${this.scheduler.nowMs()}`);
    const next = (): void => {
      if (!this.isProposing) return;
      this.client.proposeOnce(this.scheduler.nowMs());
      this.scheduler.schedule(random.between(gapMs.min, gapMs.max), next, { label: "propose" });
    };
    this.scheduler.schedule(random.between(gapMs.min, gapMs.max), next, { label: "propose" });
  }

  stopProposals(): void {
    this.isProposing = false;
  }

  /** Restarts every crashed process but possibly one voter, and ends every pause. */
  healProcesses(): void {
    const downVoters = this.processes.filter(
      (process) => !process.isUp && process.id <= this.shape.voterCount,
    );
    // One voter may stay down: a majority of 3 or 5 is still up.
    const keptDown =
      downVoters.length > 0 && this.random.chance(0.3) ? this.random.pick(downVoters) : undefined;
    for (const process of this.processes) {
      if (process.isUp) process.resume();
      else if (process !== keptDown) process.restart();
    }
  }
}

/** One seed's result: its trace hash, and its report or the broken invariant. */
export type RaftSeedResult = SeedResult<RaftRunReport>;

/**
 * Runs one seed. A broken invariant (the checker's InvariantViolation, or an assertion inside
 * the node) ends the run at once and is reported with the latest trace lines.
 */
export async function runRaftSeed(seed: number): Promise<RaftSeedResult> {
  const simulation = new RaftSimulation(seed);
  return runSeedPhases(simulation.scheduler, () => runPhases(simulation));
}

async function runPhases(simulation: RaftSimulation): Promise<RaftRunReport> {
  const { scheduler, checker, client, shape } = simulation;
  for (const process of simulation.processes) process.start();
  const faults = new FaultInjector(
    scheduler,
    simulation.network,
    simulation.processes,
    simulation.random.fork("faults"),
  );
  faults.start({ min: 40, max: 300 });
  simulation.startProposals({ min: 5, max: 40 });
  await scheduler.runFor(simulation.random.between(faultPhaseMs.min, faultPhaseMs.max));
  faults.stop();
  simulation.healProcesses();
  simulation.stopProposals();
  simulation.startProposals({ min: 10, max: 10 });
  const healedAtMs = scheduler.nowMs();
  const isLive = await scheduler.runUntil(
    () => client.hasCommittedSince(healedAtMs),
    healedAtMs + livenessBoundMs,
  );
  if (!isLive) {
    throw new InvariantViolation(
      `liveness: no fresh proposal committed within ${livenessBoundMs} ms of the heal`,
    );
  }
  const livenessMs = scheduler.nowMs() - healedAtMs;
  simulation.stopProposals();
  // Every live node must catch up within the quiet time; the checker then looks at each.
  await scheduler.runUntil(
    () => checker.isConverged(simulation.processes),
    scheduler.nowMs() + quietPhaseMs,
  );
  checker.checkConverged(simulation.processes);
  const summary =
    `voters=${shape.voterCount} observers=${shape.observerCount} kraft=${shape.kraftVersion} ` +
    `leaders=${checker.electedLeaderCount} committed=${checker.committedEndOffset} ` +
    `proposals=${client.counts.accepted} liveness=${livenessMs}ms`;
  return {
    shape,
    livenessMs,
    committedEndOffset: checker.committedEndOffset,
    leadersElected: checker.electedLeaderCount,
    summary,
  };
}
