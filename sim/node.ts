import { assert } from "../src/common/index.js";
import type { Clock, Timer, Timers } from "../src/ports/index.js";
import type { SeededRandom } from "./random.js";

/**
 * A fraction of a millisecond for simulated time `ms`, so that a machine's monotonic clock shows
 * fractions as performance.now() does, and differences of two readings do too; below 1, so the
 * clock still never goes backwards.
 */
function monotonicFractionMs(ms: number): number {
  return (Math.imul(Math.floor(ms), 2654435761) >>> 0) / 4294967296;
}

/** What a node needs from the scheduler that runs it. */
export interface NodeHost {
  readonly clock: Clock;
  readonly random: SeededRandom;
  record(line: string): void;
  schedule(delayMs: number, callback: () => void, options: ScheduleOptions): Timer;
}

/** Who owns an event and what it is called in the trace. */
export interface ScheduleOptions {
  /** The node whose process the event belongs to: it is dropped if the node crashed since. */
  readonly node?: SimNode;
  /** A short name for the trace. */
  readonly label?: string;
  /** The incarnation of `node` the work belongs to (default: the current one). */
  readonly incarnation?: number;
}

/**
 * One simulated machine in a scheduler: its name, its view of the clock (with an optional
 * wall-clock skew), its timers, and its life. States: up → (crash) → down → (restart) → up.
 * Each transition starts a new incarnation; an event or I/O completion of an older incarnation is
 * dropped, which is how a crash cancels timers and loses I/O in flight.
 */
export class SimNode {
  /** The node's clock: the scheduler's time, with wall time shifted by `wallSkewMs`. */
  readonly clock: Clock;
  /** Timers that belong to the node's current incarnation. */
  readonly timers: Timers;
  /** The node's own random stream (derived from the seed and the node name). */
  readonly random: SeededRandom;
  /** Added to the wall clock of this node, to simulate clocks that disagree. */
  wallSkewMs = 0;
  private currentIncarnation = 0;
  private up = true;
  private readonly crashListeners: Array<() => void> = [];

  constructor(
    readonly name: string,
    private readonly host: NodeHost,
  ) {
    this.random = host.random.fork(`node/${name}`);
    this.clock = {
      nowMs: () => host.clock.nowMs() + this.wallSkewMs,
      // performance.now() has fractions of a millisecond; so does a simulated machine's clock.
      monotonicMs: () => {
        const ms = host.clock.monotonicMs();
        return ms + monotonicFractionMs(ms);
      },
    };
    this.timers = {
      schedule: (delayMs, callback) =>
        host.schedule(delayMs, callback, { node: this, label: "timer" }),
    };
  }

  /** True between a restart (or creation) and the next crash. */
  get isUp(): boolean {
    return this.up;
  }

  /** Counts crashes and restarts; work started in another incarnation never completes. */
  get incarnation(): number {
    return this.currentIncarnation;
  }

  /** True when work started in `incarnation` may still complete. */
  isCurrent(incarnation: number): boolean {
    return this.up && incarnation === this.currentIncarnation;
  }

  /** Registers what a crash must also do to this node's disk and network. */
  onCrash(listener: () => void): void {
    this.crashListeners.push(listener);
  }

  /** Stops the node at once, as kill -9 or a power cut would. */
  crash(): void {
    assert(this.up, `node ${this.name} is already down`);
    this.up = false;
    this.currentIncarnation += 1;
    this.host.record(`node ${this.name} crash`);
    for (const listener of this.crashListeners) listener();
  }

  /** Brings a crashed node back; its process must start again from its disk. */
  restart(): void {
    assert(!this.up, `node ${this.name} is not down`);
    this.up = true;
    this.currentIncarnation += 1;
    this.host.record(`node ${this.name} restart`);
  }
}
