/**
 * The simulated time and disks of the partition scenarios: one scheduler for every broker (so
 * one clock), disks whose calls complete at once (so time moves only when a script says
 * `advance`), and the lines a command prints, in the order things happened.
 */
import assert from "node:assert/strict";
import { Scheduler, SimFileSystem, loseAllUnsynced, type SimNode } from "../../../sim/index.js";

/** Microtask turns the scheduler runs after each event, enough for a fetch round's chain. */
const MICROTASK_TURNS = 400;
/** Settling rounds before a command is taken to be stuck (a bug in the harness or the code). */
const SETTLE_ROUNDS_MAX = 200;

export class ScenarioWorld {
  readonly scheduler: Scheduler;
  /** What the current command printed so far. */
  lines: string[] = [];

  constructor(seed: number) {
    this.scheduler = new Scheduler({ seed, microtaskTurns: MICROTASK_TURNS });
  }

  /** Milliseconds since the scenario started. */
  get nowMs(): number {
    return this.scheduler.nowMs();
  }

  print(line: string): void {
    this.lines.push(line);
  }

  /**
   * A broker's machine and disk. Every call completes at the time it is made; a crash keeps
   * exactly what was synced (file contents by fsync, folder entries by a folder sync).
   */
  machine(name: string): { readonly node: SimNode; readonly fs: SimFileSystem } {
    const node = this.scheduler.node(name);
    const fs = new SimFileSystem(this.scheduler, node, {
      latency: { minMs: 0, maxMs: 0 },
      syncLatency: { minMs: 0, maxMs: 0 },
      crash: loseAllUnsynced,
    });
    return { node, fs };
  }

  /** Runs what is due now, and what that starts, until nothing more happens at this time. */
  async settle(): Promise<void> {
    for (let round = 0; round < SETTLE_ROUNDS_MAX; round++) {
      const before = this.scheduler.eventCount;
      await this.scheduler.runUntil(() => false, this.nowMs);
      for (let turn = 0; turn < MICROTASK_TURNS; turn++) await Promise.resolve();
      if (this.scheduler.eventCount === before) return;
    }
    assert.fail(`the brokers did not settle at ${this.nowMs} ms`);
  }

  /** Runs the simulation until `work` settles; fails when it waits on something held. */
  async run<T>(work: Promise<T>): Promise<T> {
    let outcome: { value: T } | { error: unknown } | undefined;
    work.then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { error }),
    );
    await this.settle();
    assert.ok(outcome !== undefined, `an operation did not finish at ${this.nowMs} ms`);
    if ("error" in outcome) throw outcome.error;
    return outcome.value;
  }

  /** Moves the clock by `durationMs`, firing every timer due on the way, then settles. */
  async advance(durationMs: number): Promise<void> {
    await this.scheduler.runUntil(() => false, this.nowMs + durationMs);
    await this.settle();
  }
}
