import { AssertionError } from "../../src/common/index.js";
import type { SeededRandom } from "../random.js";
import { SimWorld } from "../world.js";
import { startProcess, type PingMessage } from "./self-check-process.js";
import { SelfCheckState } from "./self-check-state.js";
import type { Workload, WorkloadOutcome } from "./registry.js";

const nodeNames = ["n1", "n2", "n3"] as const;
const faultPhaseMs = 4000;
const quietPhaseMs = 1000;

/** Draws link faults for one seed: every run has delay, and some have loss and reordering. */
function linkFaults(random: SeededRandom) {
  return {
    delayMinMs: random.between(0, 2),
    delayMaxMs: random.between(3, 30),
    dropProbability: random.pick([0, 0.01, 0.1]),
    duplicateProbability: random.pick([0, 0.05, 0.2]),
    reorderProbability: random.pick([0, 0.1, 0.5]),
    splitProbability: random.pick([0, 0.3]),
  };
}

/** One fault, chosen by the seed: a crash, a one-way cut, a partition, or a heal. */
function injectFault(
  world: SimWorld<PingMessage>,
  random: SeededRandom,
  checker: SelfCheckState,
): void {
  const action = random.between(0, 3);
  const name = random.pick(nodeNames);
  const node = world.scheduler.node(name);
  const others = nodeNames.filter((other) => other !== name);
  if (action === 0 && node.isUp) {
    node.crash();
    world.scheduler.schedule(random.between(20, 300), () => {
      node.restart();
      startProcess(world, node, others, checker);
    });
  } else if (action === 1) {
    world.network.cut(name, random.pick(others));
  } else if (action === 2) {
    world.network.partition([name], others);
  } else {
    world.network.healAll();
  }
}

function scheduleFaults(world: SimWorld<PingMessage>, checker: SelfCheckState): void {
  const random = world.scheduler.random.fork("faults");
  const next = (): void => {
    if (world.scheduler.nowMs() >= faultPhaseMs) return;
    injectFault(world, random, checker);
    world.scheduler.schedule(random.between(50, 250), next, { label: "fault" });
  };
  world.scheduler.schedule(random.between(50, 250), next, { label: "fault" });
}

async function runSelfCheck(seed: number): Promise<WorkloadOutcome> {
  const world = new SimWorld<PingMessage>({ seed });
  const checker = new SelfCheckState();
  try {
    world.network.configureAllLinks(linkFaults(world.scheduler.random.fork("links")));
    for (const name of nodeNames) {
      const disk = world.disk(name);
      disk.injectFault({ code: "EIO", operations: ["append", "datasync"], probability: 0.002 });
    }
    for (const name of nodeNames) {
      const peers = nodeNames.filter((other) => other !== name);
      startProcess(world, world.node(name), peers, checker);
    }
    scheduleFaults(world, checker);
    await world.scheduler.runUntil(() => checker.hasFailed, faultPhaseMs);
    world.network.healAll();
    await world.scheduler.runUntil(() => checker.hasFailed, faultPhaseMs + quietPhaseMs);
  } catch (error) {
    if (!(error instanceof AssertionError)) throw error;
    checker.fail(`assertion: ${error.message}`);
  }
  return outcome(world, checker);
}

function outcome(world: SimWorld<PingMessage>, checker: SelfCheckState): WorkloadOutcome {
  const traceHash = world.traceHash();
  if (checker.hasFailed) {
    return {
      kind: "failed",
      traceHash,
      reason: checker.violations.join("; "),
      recentTrace: world.scheduler.trace.recentLines(),
    };
  }
  const stats = world.network.messageStats;
  const summary =
    `${world.scheduler.eventCount} events, ${stats.delivered}/${stats.sent} messages, ` +
    `${checker.streamBytesVerified} stream bytes, ${checker.recoveries} recoveries`;
  return { kind: "passed", traceHash, summary };
}

/** The simulator checking itself: faulty links, crashing disks, and invariants on all three. */
export const simulatorSelfCheck: Workload = {
  name: "simulator",
  description:
    "three nodes exchange messages and byte streams over faulty links and keep a checkpointed " +
    "log on crashing disks; checks delivery, stream integrity and durability of synced bytes",
  run: runSelfCheck,
};
