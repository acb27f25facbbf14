import { assert } from "../src/common/index.js";
import type { Timer } from "../src/ports/index.js";
import { ManualClock, simulationEpochMs } from "./clock.js";
import { EventQueue } from "./event-queue.js";
import { SimNode, type ScheduleOptions } from "./node.js";
import { SeededRandom } from "./random.js";
import { Trace } from "./trace.js";

/** Options of a Scheduler. */
export interface SchedulerOptions {
  /** Decides every random choice of the run, including the order of simultaneous events. */
  readonly seed: number;
  /** The wall-clock time at the start (default 2024-01-01T00:00:00Z). */
  readonly startWallMs?: number;
  /**
   * How many microtask turns run after each event so that promise continuations of the event
   * finish before the next one (default 64). Deeper chains carry over to later events, which is
   * still deterministic.
   */
  readonly microtaskTurns?: number;
  /** The trace to append to (default: a new one). */
  readonly trace?: Trace;
}

interface ScheduledEvent {
  readonly timeMs: number;
  readonly tieBreak: number;
  readonly sequence: number;
  readonly label: string;
  readonly node: SimNode | undefined;
  readonly incarnation: number;
  callback: (() => void) | undefined;
}

/**
 * A deterministic event loop: a priority queue of events ordered by (time, seeded tie-break,
 * sequence). Time jumps from event to event; nothing real is waited for. Events due at the same
 * time run in an order drawn from the seed, so different seeds explore different interleavings
 * and one seed always replays the same one.
 */
export class Scheduler {
  readonly clock: ManualClock;
  readonly random: SeededRandom;
  readonly trace: Trace;
  private readonly tieBreaks: SeededRandom;
  private readonly queue = new EventQueue<ScheduledEvent>();
  private readonly nodesByName = new Map<string, SimNode>();
  private readonly microtaskTurns: number;
  private sequence = 0;
  private eventsRun = 0;
  private isRunning = false;

  constructor(options: SchedulerOptions) {
    this.clock = new ManualClock(options.startWallMs ?? simulationEpochMs);
    this.random = new SeededRandom(options.seed);
    this.tieBreaks = this.random.fork("scheduler");
    this.trace = options.trace ?? new Trace();
    this.microtaskTurns = options.microtaskTurns ?? 64;
  }

  /** The current simulated time in milliseconds since the start. */
  nowMs(): number {
    return this.clock.monotonicMs();
  }

  /** The node called `name`, created on first use. */
  node(name: string): SimNode {
    let node = this.nodesByName.get(name);
    if (node === undefined) {
      node = new SimNode(name, {
        clock: this.clock,
        random: this.random,
        record: (line) => this.record(line),
        schedule: (delayMs, callback, options) => this.schedule(delayMs, callback, options),
      });
      this.nodesByName.set(name, node);
    }
    return node;
  }

  /** Every node created so far, in creation order. */
  nodes(): readonly SimNode[] {
    return [...this.nodesByName.values()];
  }

  /** Appends a line to the trace, stamped with the current time. */
  record(line: string): void {
    this.trace.record(`${this.nowMs()} ${line}`);
  }

  /** The hash of the trace so far. */
  traceHash(): string {
    return this.trace.traceHash();
  }

  /** How many events are waiting, cancelled ones included until they reach the front. */
  get pendingEventCount(): number {
    return this.queue.size;
  }

  /** How many events ran (not counting dropped or cancelled ones). */
  get eventCount(): number {
    return this.eventsRun;
  }

  /**
   * Runs `callback` `delayMs` from now. With `node`, the event belongs to the node's current
   * incarnation and is dropped if the node crashes or restarts first.
   */
  schedule(delayMs: number, callback: () => void, options: ScheduleOptions = {}): Timer {
    assert(Number.isFinite(delayMs), "a delay is a finite number");
    const event: ScheduledEvent = {
      // Whole milliseconds, as Node's timers fire: the simulated time stays an integer even when
      // a delay was computed from a monotonic clock with fractions.
      timeMs: this.nowMs() + Math.ceil(Math.max(0, delayMs)),
      tieBreak: this.tieBreaks.nextUint32(),
      sequence: this.sequence++,
      label: options.label ?? "event",
      node: options.node,
      incarnation: options.incarnation ?? options.node?.incarnation ?? 0,
      callback,
    };
    this.queue.push(event);
    return {
      cancel: () => {
        event.callback = undefined;
      },
    };
  }

  /** A FIFO lane: callbacks pushed to it run in push order even when due at the same time. */
  lane(name: string): Lane {
    return new Lane(this, name);
  }

  /** Runs the next event, if any; resolves to false when nothing is left. */
  async step(): Promise<boolean> {
    this.enterRun();
    try {
      return await this.runNext(Number.POSITIVE_INFINITY);
    } finally {
      this.isRunning = false;
    }
  }

  /** Runs every event due within `durationMs` and leaves the clock `durationMs` later. */
  async runFor(durationMs: number): Promise<void> {
    assert(durationMs >= 0, "runFor takes a duration >= 0");
    const endMs = this.nowMs() + durationMs;
    this.enterRun();
    try {
      await this.flushMicrotasks();
      while (await this.runNext(endMs));
      this.clock.advanceTo(endMs);
    } finally {
      this.isRunning = false;
    }
  }

  /**
   * Runs events until `predicate` holds, checking it before each event, or until the next event
   * is later than the simulated time `deadlineMs` (the clock then stops at the deadline).
   * Resolves to whether the predicate held.
   */
  async runUntil(predicate: () => boolean, deadlineMs: number): Promise<boolean> {
    this.enterRun();
    try {
      await this.flushMicrotasks();
      for (;;) {
        if (predicate()) return true;
        if (!(await this.runNext(deadlineMs))) break;
      }
      if (deadlineMs > this.nowMs() && Number.isFinite(deadlineMs)) {
        this.clock.advanceTo(deadlineMs);
      }
      return predicate();
    } finally {
      this.isRunning = false;
    }
  }

  /** Runs until no event is left or the simulated time `deadlineMs` is reached. */
  async runUntilIdle(deadlineMs = Number.POSITIVE_INFINITY): Promise<void> {
    await this.runUntil(() => false, deadlineMs);
  }

  private enterRun(): void {
    assert(!this.isRunning, "the scheduler is already running");
    this.isRunning = true;
  }

  /** Runs the first live event due at or before `endMs`; false when there is none. */
  private async runNext(endMs: number): Promise<boolean> {
    for (;;) {
      const next = this.queue.peek();
      if (next === undefined || next.timeMs > endMs) return false;
      this.queue.pop();
      const callback = next.callback;
      if (callback === undefined) continue;
      next.callback = undefined;
      this.clock.advanceTo(next.timeMs);
      const owner = next.node;
      if (owner !== undefined && !owner.isCurrent(next.incarnation)) {
        this.record(`drop ${owner.name} ${next.label}`);
        continue;
      }
      this.record(`run ${owner?.name ?? "-"} ${next.label}`);
      this.eventsRun += 1;
      callback();
      await this.flushMicrotasks();
      return true;
    }
  }

  private async flushMicrotasks(): Promise<void> {
    for (let turn = 0; turn < this.microtaskTurns; turn++) await Promise.resolve();
  }
}

interface LaneEntry {
  readonly callback: () => void;
  readonly label: string;
  readonly node: SimNode | undefined;
  readonly incarnation: number;
}

/**
 * Callbacks that run in the order they were pushed, each no earlier than its delay: a disk
 * queue or a TCP byte stream. The entry's node is checked when it runs, so a dropped entry
 * never lets a later one run in its place.
 */
export class Lane {
  private readonly entries: LaneEntry[] = [];
  private lastTimeMs = 0;

  constructor(
    private readonly scheduler: Scheduler,
    readonly name: string,
  ) {}

  /** Queues `callback` to run `delayMs` from now, and after everything queued before it. */
  push(delayMs: number, callback: () => void, options: ScheduleOptions = {}): void {
    const timeMs = Math.max(this.scheduler.nowMs() + Math.max(0, delayMs), this.lastTimeMs);
    this.lastTimeMs = timeMs;
    this.entries.push({
      callback,
      label: options.label ?? "event",
      node: options.node,
      incarnation: options.incarnation ?? options.node?.incarnation ?? 0,
    });
    this.scheduler.schedule(timeMs - this.scheduler.nowMs(), () => this.runHead(), {
      label: `lane ${this.name}`,
    });
  }

  /** How many callbacks wait in the lane. */
  get length(): number {
    return this.entries.length;
  }

  private runHead(): void {
    const entry = this.entries.shift();
    assert(entry !== undefined, "a lane event always has an entry");
    const owner = entry.node;
    if (owner !== undefined && !owner.isCurrent(entry.incarnation)) {
      this.scheduler.record(`drop ${owner.name} ${entry.label}`);
      return;
    }
    this.scheduler.record(`run ${owner?.name ?? "-"} ${entry.label}`);
    entry.callback();
  }
}
