/**
 * The faults of the whole-node simulation, drawn from the seed: a node's process killed and
 * started again later (everything it wrote survives, as kill -9 leaves the page cache), and a
 * node cut off from the other nodes (clients still reach it, so a deposed leader may still be
 * asked). Each fault is recorded in the trace and counted by kind.
 */
import type { SeededRandom } from "../random.js";
import { keepAllWritten } from "../fs/crash.js";
import type { SimWorld } from "../world.js";
import type { SimulatedNode } from "./sim-nodes.js";

export type FaultKind = "kill" | "isolate";

export class NodeFaults {
  readonly counts = new Map<FaultKind, number>();
  private isRunning = false;
  private readonly isolated = new Set<string>();

  constructor(
    private readonly world: SimWorld,
    private readonly nodes: readonly SimulatedNode[],
    private readonly random: SeededRandom,
    private readonly settings: { readonly gapMs: { min: number; max: number } },
  ) {}

  /** Starts drawing faults until `stop`. */
  start(): void {
    this.isRunning = true;
    this.scheduleNext();
  }

  stop(): void {
    this.isRunning = false;
  }

  /** Ends every fault: every link healed, every killed node started again. */
  healAll(): void {
    this.world.network.healAll();
    this.isolated.clear();
    for (const node of this.nodes) if (!node.machine.isUp) this.restart(node);
  }

  private scheduleNext(): void {
    const { min, max } = this.settings.gapMs;
    this.world.scheduler.schedule(this.random.between(min, max), () => this.inject(), {
      label: "fault",
    });
  }

  private inject(): void {
    if (!this.isRunning) return;
    const node = this.random.pick(this.nodes);
    const kind: FaultKind = this.random.chance(0.5) ? "kill" : "isolate";
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    const lastsMs = this.random.between(200, 4000);
    if (kind === "kill") this.kill(node, lastsMs);
    else this.isolate(node, lastsMs);
    this.scheduleNext();
  }

  private kill(node: SimulatedNode, lastsMs: number): void {
    if (!node.machine.isUp) return;
    this.world.disk(node.machine.name).crashOptions = keepAllWritten;
    node.machine.crash();
    node.running = undefined;
    this.world.scheduler.schedule(lastsMs, () => this.restart(node), { label: "fault end" });
  }

  private restart(node: SimulatedNode): void {
    if (node.machine.isUp) return;
    node.machine.restart();
    void node.start().catch((error: unknown) => {
      node.fatalError = error;
    });
  }

  private isolate(node: SimulatedNode, lastsMs: number): void {
    const name = node.machine.name;
    if (this.isolated.has(name)) return;
    const others = this.nodes.map((other) => other.machine.name).filter((other) => other !== name);
    this.world.network.partition([name], others);
    this.isolated.add(name);
    this.world.scheduler.schedule(
      lastsMs,
      () => {
        if (!this.isolated.delete(name)) return;
        for (const other of others) {
          this.world.network.heal(name, other);
          this.world.network.heal(other, name);
        }
      },
      { label: "fault end" },
    );
  }
}
