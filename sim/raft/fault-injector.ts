/**
 * The faults of the Raft simulation's fault phase, drawn from the seed: process crashes (with
 * a restart later), GC-style pauses, lossy, duplicating, reordering and slow links, one-way
 * cuts, partitions into two groups, and heals. `stop` ends the phase and heals the network.
 */
import { defaultLinkSettings, type LinkSettings } from "../net/links.js";
import type { SimNetwork } from "../net/sim-network.js";
import type { SeededRandom } from "../random.js";
import type { Scheduler } from "../scheduler.js";
import type { RaftProcess } from "./raft-process.js";
import type { RaftEnvelope } from "./settings.js";

type FaultKind = "crash" | "pause" | "links" | "cut" | "partition" | "heal";

const faultKinds: readonly FaultKind[] = ["crash", "pause", "links", "cut", "partition", "heal"];

/** Injects faults every so often until stopped. */
export class FaultInjector {
  private isActive = false;
  private readonly overriddenLinks: [string, string][] = [];
  /** How many faults of each kind were injected. */
  readonly counts = new Map<FaultKind, number>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly network: SimNetwork<RaftEnvelope>,
    private readonly processes: readonly RaftProcess[],
    private readonly random: SeededRandom,
  ) {}

  /** Starts injecting faults, one every `gapMs.min`..`gapMs.max`. */
  start(gapMs: { readonly min: number; readonly max: number }): void {
    this.isActive = true;
    const next = (): void => {
      if (!this.isActive) return;
      this.injectOne();
      this.scheduler.schedule(this.random.between(gapMs.min, gapMs.max), next, { label: "fault" });
    };
    this.scheduler.schedule(this.random.between(gapMs.min, gapMs.max), next, { label: "fault" });
  }

  /** Ends the fault phase: no more faults or pending restarts, every link healed and clean. */
  stop(): void {
    this.isActive = false;
    this.network.healAll();
    this.network.configureAllLinks(defaultLinkSettings);
    for (const [from, to] of this.overriddenLinks) {
      this.network.configureLink(from, to, defaultLinkSettings);
    }
  }

  private injectOne(): void {
    const kind = this.random.pick(faultKinds);
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    switch (kind) {
      case "crash":
        return this.crashOne();
      case "pause": {
        const process = this.random.pick(this.processes);
        return process.pause(this.random.between(20, 700));
      }
      case "links":
        return this.degradeLinks();
      case "cut": {
        const [from, to] = this.twoNames();
        return this.network.cut(from, to);
      }
      case "partition":
        return this.partition();
      case "heal":
        return this.stopButKeepActive();
    }
  }

  private crashOne(): void {
    const process = this.random.pick(this.processes);
    if (!process.isUp) return;
    process.crash();
    this.scheduler.schedule(
      this.random.between(20, 900),
      () => {
        if (this.isActive && !process.isUp) process.restart();
      },
      { label: `restart ${process.name}` },
    );
  }

  private degradeLinks(): void {
    const settings: Partial<LinkSettings> = {
      delayMinMs: this.random.between(0, 3),
      delayMaxMs: this.random.between(5, 60),
      dropProbability: this.random.pick([0, 0.05, 0.2, 0.5]),
      duplicateProbability: this.random.pick([0, 0.05, 0.2]),
      reorderProbability: this.random.pick([0, 0.1, 0.4]),
      reorderWindowMs: this.random.between(5, 60),
    };
    if (this.random.chance(0.3)) {
      this.network.configureAllLinks(settings);
      return;
    }
    const [from, to] = this.twoNames();
    this.network.configureLink(from, to, settings);
    this.overriddenLinks.push([from, to]);
  }

  private partition(): void {
    const names = this.processes.map((process) => process.name);
    const groupA = names.filter(() => this.random.chance(0.5));
    const groupB = names.filter((name) => !groupA.includes(name));
    if (groupA.length > 0 && groupB.length > 0) this.network.partition(groupA, groupB);
  }

  private stopButKeepActive(): void {
    this.stop();
    this.isActive = true;
  }

  private twoNames(): [string, string] {
    const from = this.random.pick(this.processes).name;
    const others = this.processes.filter((process) => process.name !== from);
    return [from, this.random.pick(others).name];
  }
}
