/**
 * What the cluster workload asks of the running cluster: whether it has settled (an active
 * controller whose committed image has every broker unfenced, and, at the end, every live node
 * at the same committed offset), the images to compare, and the fault that cuts one broker off
 * from every controller for longer than a session, so that it is fenced and its partitions move.
 */
import type { BrokerId } from "../../src/common/index.js";
import type { MetadataImage } from "../../src/metadata/index.js";
import type { SimNetwork } from "../net/sim-network.js";
import { nodeName } from "../raft/settings.js";
import type { SeededRandom } from "../random.js";
import type { Scheduler } from "../scheduler.js";
import { BrokerMember } from "./broker-member.js";
import type { ClusterChecker, ConvergingNode } from "./cluster-checker.js";
import type { AnyEnvelope, ClusterProcess } from "./cluster-process.js";
import { ControllerMember } from "./controller-member.js";
import { brokerIds, brokerSessionTimeoutMs, controllerIds } from "./settings.js";

/** The image a live process's member holds, or undefined while it is down. */
function imageOf(process: ClusterProcess): MetadataImage | undefined {
  const member = process.member;
  if (!process.isUp || member === null) return undefined;
  if (member instanceof ControllerMember) return member.controller.committedImage;
  if (member instanceof BrokerMember) return member.image;
  return undefined;
}

function activeController(processes: readonly ClusterProcess[]): ControllerMember | undefined {
  for (const process of processes) {
    const member = process.member;
    if (process.isUp && member instanceof ControllerMember && member.controller.isActive) {
      return member;
    }
  }
  return undefined;
}

/**
 * True when an active controller's committed image has every broker registered and unfenced,
 * and (with `requireSameImages`) every live node's image is at the committed history's end.
 */
export function converged(
  processes: readonly ClusterProcess[],
  checker: ClusterChecker,
  options: { readonly requireSameImages: boolean },
): boolean {
  const active = activeController(processes);
  if (active === undefined) return false;
  const brokers = active.controller.committedImage.cluster.brokers;
  for (const process of processes) {
    if (!brokerIds.includes(process.id)) continue;
    const member = process.member;
    if (!(member instanceof BrokerMember) || !process.isUp) return false;
    // The registration must be this incarnation's, and the broker must know it is unfenced.
    const registration = brokers.get(process.id as BrokerId);
    if (registration === undefined || registration.isFenced) return false;
    if (registration.incarnationId !== member.incarnationId || !member.isRunningUnfenced) {
      return false;
    }
  }
  if (!options.requireSameImages) return true;
  const expected = checker.committedImage.provenance;
  return processes.every((process) => {
    const provenance = imageOf(process)?.provenance;
    return (
      provenance !== undefined &&
      provenance.lastContainedOffset === expected.lastContainedOffset &&
      provenance.lastContainedEpoch === expected.lastContainedEpoch
    );
  });
}

/** Every live node's image, the active controller's first. */
export function membersOf(processes: readonly ClusterProcess[]): ConvergingNode[] {
  const nodes: ConvergingNode[] = [];
  for (const process of processes) {
    const image = imageOf(process);
    if (image === undefined) continue;
    const node = { name: process.name, image };
    if (process.member === activeController(processes)) nodes.unshift(node);
    else nodes.push(node);
  }
  return nodes;
}

/** Cuts a random broker off from every controller now and then, for 1-2.5 sessions. */
export class BrokerIsolation {
  private isActive = false;
  /** How many isolations were started. */
  count = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly network: SimNetwork<AnyEnvelope>,
    private readonly random: SeededRandom,
  ) {}

  start(): void {
    this.isActive = true;
    this.scheduleNext();
  }

  /** No more isolations; the fault injector's stop heals every link. */
  stop(): void {
    this.isActive = false;
  }

  private scheduleNext(): void {
    this.scheduler.schedule(this.random.between(200, 900), () => this.isolateOne(), {
      label: "isolate broker",
    });
  }

  private isolateOne(): void {
    if (!this.isActive) return;
    this.count += 1;
    const broker = nodeName(this.random.pick(brokerIds));
    const controllers = controllerIds.map((id) => nodeName(id));
    this.network.partition([broker], controllers);
    const durationMs = this.random.between(brokerSessionTimeoutMs, 2.5 * brokerSessionTimeoutMs);
    this.scheduler.schedule(
      durationMs,
      () => {
        for (const controller of controllers) {
          this.network.heal(broker, controller);
          this.network.heal(controller, broker);
        }
      },
      { label: "end isolation" },
    );
    this.scheduleNext();
  }
}
