/**
 * The swarm of faults of the whole-node simulation. Each seed draws its own mix: a weight for
 * each kind of fault (some seeds have none of a kind, others mostly one) and the pace of the
 * schedule. The kinds:
 *
 * - kill: a node's process killed and started again later; everything it wrote survives, as the
 *   page cache does after kill -9.
 * - isolate: a node cut off from the other nodes both ways (clients still reach it, so a deposed
 *   leader may still be asked); one-way: only what the node sends to one other node is held.
 * - lossy: the links between two nodes reset connections on a share of writes.
 * - clock: a node's wall clock jumps forwards or backwards by up to a minute.
 * - disk: the partition log dir of a node fails reads and writes with EIO, or growth with
 *   ENOSPC, for a while; its log dir goes offline until the node restarts, as in Kafka.
 * - power (off unless enabled): a power cut of one chosen node, losing what it did not sync.
 *   Without eligible leader replicas (KIP-966) a replica that lost its unsynced records can stay
 *   the last ISR member and be elected again with a shorter log, as in Kafka; with ELR, KIP-966's
 *   balanced recovery can elect the last known leader after its unclean shutdown, as Kafka
 *   does. Both lose committed records, so power cuts are left out of the mix.
 *
 * Every fault ends by itself after 0.2-4 s, and `healAll` ends them all: links healed, clocks
 * kept as they are, every killed node and every node whose disk failed started again.
 */
import { assert } from "../../src/common/index.js";
import { keepAllWritten, type CrashOptions } from "../fs/crash.js";
import type { SeededRandom } from "../random.js";
import type { SimWorld } from "../world.js";
import type { SimulatedNode } from "./sim-nodes.js";

export type FaultKind = "kill" | "isolate" | "oneWay" | "lossy" | "clock" | "disk" | "power";

const KINDS: readonly FaultKind[] = ["kill", "isolate", "oneWay", "lossy", "clock", "disk"];

/**
 * One fault, drawn whole when it starts, so that a schedule of them replays without drawing
 * again (the shrinker runs a seed on part of its schedule).
 */
export interface Fault {
  /** The simulated time it starts. */
  readonly atMs: number;
  readonly kind: FaultKind;
  /** The index of the node it strikes, and of the other node of a link fault. */
  readonly node: number;
  readonly other: number;
  readonly lastsMs: number;
  /** lossy: the share of writes that reset; clock: the jump; disk: ENOSPC rather than EIO. */
  readonly dropProbability: number;
  readonly skewMs: number;
  readonly isNoSpace: boolean;
}

/** A fault as one line of a schedule. */
export function describeFault(fault: Fault): string {
  const detail =
    fault.kind === "lossy"
      ? ` drop ${fault.dropProbability}`
      : fault.kind === "clock"
        ? ` jump ${fault.skewMs} ms`
        : fault.kind === "disk"
          ? fault.isNoSpace
            ? " ENOSPC"
            : " EIO"
          : "";
  const link = fault.kind === "oneWay" || fault.kind === "lossy" ? ` and node ${fault.other}` : "";
  const what = `${fault.kind} node ${fault.node}${link}`;
  return `${fault.atMs} ms: ${what} for ${fault.lastsMs} ms${detail}`;
}

/** The partition log dir of every simulated node (sim-nodes.ts). */
const PARTITION_LOG_DIR = "/data/logs";

export class NodeFaults {
  readonly counts = new Map<FaultKind, number>();
  /** The seed's weight of each kind. */
  readonly weights: ReadonlyMap<FaultKind, number>;
  /** Every fault started so far, in order. */
  readonly schedule: Fault[] = [];
  private isRunning = false;
  private readonly isolated = new Set<string>();
  private readonly diskFailed = new Set<SimulatedNode>();

  constructor(
    private readonly world: SimWorld,
    private readonly nodes: readonly SimulatedNode[],
    private readonly random: SeededRandom,
    private readonly settings: {
      readonly gapMs: { min: number; max: number };
      /** Whether power cuts are in the mix (see the comment above). */
      readonly hasPowerCuts: boolean;
      /** Replays these faults instead of drawing (times are absolute). */
      readonly replay?: readonly Fault[];
    },
  ) {
    const kinds: FaultKind[] = settings.hasPowerCuts ? [...KINDS, "power"] : [...KINDS];
    const weights = new Map(kinds.map((kind) => [kind, random.pick([0, 1, 1, 3])]));
    if ([...weights.values()].every((weight) => weight === 0)) weights.set("kill", 1);
    this.weights = weights;
  }

  /** Starts drawing faults (or replaying the given ones) until `stop`. */
  start(): void {
    this.isRunning = true;
    const replay = this.settings.replay;
    if (replay === undefined) {
      this.scheduleNext();
      return;
    }
    const nowMs = this.world.scheduler.nowMs();
    for (const fault of replay) {
      const delayMs = fault.atMs - nowMs;
      this.world.scheduler.schedule(delayMs, () => this.apply(fault), { label: "fault" });
    }
  }

  stop(): void {
    this.isRunning = false;
  }

  /** Ends every fault: links healed, faulty disks cleared and their nodes started again. */
  healAll(): void {
    const { network } = this.world;
    network.healAll();
    network.configureAllLinks({ dropProbability: 0 });
    this.isolated.clear();
    for (const node of this.diskFailed) {
      this.world.disk(node.machine.name).clearFaults();
      // A failed log dir comes back only with a restart, as in Kafka.
      if (node.machine.isUp) this.crash(node, keepAllWritten);
    }
    this.diskFailed.clear();
    for (const node of this.nodes) if (!node.machine.isUp) node.restart();
  }

  private scheduleNext(): void {
    const { min, max } = this.settings.gapMs;
    const delayMs = this.random.between(min, max);
    this.world.scheduler.schedule(delayMs, () => this.inject(), { label: "fault" });
  }

  private drawKind(): FaultKind {
    const total = [...this.weights.values()].reduce((sum, weight) => sum + weight, 0);
    let draw = this.random.nextInt(total);
    for (const [kind, weight] of this.weights) {
      if (draw < weight) return kind;
      draw -= weight;
    }
    assert(false, "a draw below the total weight picks a kind");
  }

  private inject(): void {
    if (!this.isRunning) return;
    this.apply(this.draw());
    this.scheduleNext();
  }

  private draw(): Fault {
    const kind = this.drawKind();
    // Only one node ever loses what it did not sync.
    const node = kind === "power" ? 0 : this.random.nextInt(this.nodes.length);
    const others = this.nodes.map((_, index) => index).filter((index) => index !== node);
    return {
      atMs: this.world.scheduler.nowMs(),
      kind,
      node,
      other: this.random.pick(others),
      lastsMs: this.random.between(200, 4000),
      dropProbability: this.random.pick([0.01, 0.05, 0.2]),
      skewMs: this.random.between(-60_000, 60_000),
      isNoSpace: this.random.chance(0.5),
    };
  }

  private apply(fault: Fault): void {
    if (!this.isRunning) return;
    this.schedule.push(fault);
    const { kind, lastsMs } = fault;
    const node = this.nodes[fault.node];
    const other = this.nodes[fault.other];
    assert(node !== undefined && other !== undefined, "a fault strikes nodes of the simulation");
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    if (kind === "kill" || kind === "power") {
      this.kill(node, lastsMs, kind === "power" ? {} : keepAllWritten);
    } else if (kind === "isolate") this.isolate(node, lastsMs);
    else if (kind === "oneWay") this.cutOneWay(node, other, lastsMs);
    else if (kind === "lossy") this.makeLossy(node, other, fault);
    else if (kind === "clock") node.machine.wallSkewMs += fault.skewMs;
    else this.failDisk(node, fault);
  }

  private later(delayMs: number, callback: () => void): void {
    this.world.scheduler.schedule(delayMs, callback, { label: "fault end" });
  }

  private crash(node: SimulatedNode, crash: CrashOptions): void {
    this.world.disk(node.machine.name).crashOptions = crash;
    node.machine.crash();
    node.running = undefined;
  }

  private kill(node: SimulatedNode, lastsMs: number, crash: CrashOptions): void {
    if (!node.machine.isUp) return;
    this.crash(node, crash);
    this.later(lastsMs, () => node.restart());
  }

  private others(node: SimulatedNode): string[] {
    const name = node.machine.name;
    return this.nodes.map((other) => other.machine.name).filter((other) => other !== name);
  }

  private isolate(node: SimulatedNode, lastsMs: number): void {
    const name = node.machine.name;
    if (this.isolated.has(name)) return;
    const others = this.others(node);
    this.world.network.partition([name], others);
    this.isolated.add(name);
    this.later(lastsMs, () => {
      if (!this.isolated.delete(name)) return;
      for (const other of others) {
        this.world.network.heal(name, other);
        this.world.network.heal(other, name);
      }
    });
  }

  private cutOneWay(node: SimulatedNode, to: SimulatedNode, lastsMs: number): void {
    const name = node.machine.name;
    const other = to.machine.name;
    this.world.network.cut(name, other);
    this.later(lastsMs, () => {
      if (!this.isolated.has(name)) this.world.network.heal(name, other);
    });
  }

  private makeLossy(node: SimulatedNode, to: SimulatedNode, fault: Fault): void {
    const name = node.machine.name;
    const other = to.machine.name;
    const lossy = { dropProbability: fault.dropProbability };
    this.world.network.configureLink(name, other, lossy);
    this.world.network.configureLink(other, name, lossy);
    this.later(fault.lastsMs, () => {
      this.world.network.configureLink(name, other, { dropProbability: 0 });
      this.world.network.configureLink(other, name, { dropProbability: 0 });
    });
  }

  private failDisk(node: SimulatedNode, fault: Fault): void {
    const { lastsMs } = fault;
    const disk = this.world.disk(node.machine.name);
    const code = fault.isNoSpace ? "ENOSPC" : "EIO";
    const injected = disk.injectFault(
      code === "EIO"
        ? { code, path: PARTITION_LOG_DIR }
        : { code, path: PARTITION_LOG_DIR, operations: ["append", "write"] },
    );
    this.diskFailed.add(node);
    this.later(lastsMs, () => injected.remove());
  }
}
