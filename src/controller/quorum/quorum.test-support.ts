/**
 * Test doubles of the quorum controller's tests: a Raft layer that commits only when told, a
 * manual clock with timers that fire when the test advances time, a logger and a metrics sink
 * that remember what they got, and a way to let pending promise callbacks run.
 */
import type { CommittedBatch } from "../../metadata/index.js";
import type {
  Clock,
  Gauge,
  Histogram,
  LogFields,
  Logger,
  MetricsSink,
  Random,
  Timer,
  Timers,
} from "../../ports/index.js";
import type {
  ControllerProposeOptions,
  ControllerProposeResult,
  ControllerRaft,
  ControllerRaftListener,
  ControllerSnapshotRequest,
  ControllerSnapshotResult,
  LeaderAndEpoch,
} from "./controller-raft.js";

/** Lets every callback of already settled promises run (several rounds of the microtask queue). */
export async function flushPromises(): Promise<void> {
  for (let round = 0; round < 50; round++) await Promise.resolve();
}

/**
 * A Raft layer whose proposals wait until `commit()`. Winning an election appends a LeaderChange
 * control record, which takes an offset and is never delivered, as in KRaft.
 */
export class FakeControllerRaft implements ControllerRaft {
  readonly proposals: { readonly batch: CommittedBatch }[] = [];
  readonly snapshots: ControllerSnapshotRequest[] = [];
  private readonly listeners: ControllerRaftListener[] = [];
  private uncommitted: CommittedBatch[] = [];
  private endOffset = 0;
  private leader: LeaderAndEpoch = { leaderId: null, epoch: 0 };

  constructor(readonly nodeId: number) {}

  propose(
    records: readonly Uint8Array[],
    options: ControllerProposeOptions = {},
  ): Promise<ControllerProposeResult> {
    if (this.leader.leaderId !== this.nodeId) {
      return Promise.resolve({ kind: "refused", reason: "notLeader" });
    }
    const required = options.requiredBaseOffset;
    if (required !== undefined && required !== this.endOffset) {
      return Promise.resolve({
        kind: "refused",
        reason: "offsetMismatch",
        nextOffset: this.endOffset,
      });
    }
    const batch: CommittedBatch = {
      baseOffset: this.endOffset,
      lastOffset: this.endOffset + records.length - 1,
      epoch: this.leader.epoch,
      records,
    };
    this.endOffset = batch.lastOffset + 1;
    this.uncommitted.push(batch);
    this.proposals.push({ batch });
    const { baseOffset, lastOffset, epoch } = batch;
    return Promise.resolve({ kind: "accepted", baseOffset, lastOffset, epoch });
  }

  leaderAndEpoch(): LeaderAndEpoch {
    return this.leader;
  }

  /** The quorum's voters: this node alone unless a test sets `voters`. */
  voters: readonly number[] | undefined;

  voterIds(): readonly number[] {
    return this.voters ?? [this.nodeId];
  }

  registerListener(listener: ControllerRaftListener): void {
    this.listeners.push(listener);
  }

  createSnapshot(request: ControllerSnapshotRequest): Promise<ControllerSnapshotResult> {
    this.snapshots.push(request);
    return Promise.resolve({ ok: true });
  }

  /** Batches proposed and not yet committed. */
  get uncommittedBatches(): readonly CommittedBatch[] {
    return this.uncommitted;
  }

  /** A new leader in a new epoch; the uncommitted batches of the old one are lost. */
  elect(leaderId: number | null, epoch: number): void {
    this.uncommitted = [];
    if (leaderId === this.nodeId) this.endOffset += 1;
    this.leader = { leaderId, epoch };
    for (const listener of this.listeners) listener.handleLeaderChange(this.leader);
  }

  /**
   * Appends a control record of this leader (a voters change, say): it takes an offset the
   * controller did not propose and is never delivered.
   */
  appendControlRecord(): void {
    this.endOffset += 1;
  }

  /** Commits every proposed batch, delivering each in order. */
  commit(): void {
    const batches = this.uncommitted;
    this.uncommitted = [];
    for (const batch of batches) this.deliver(batch);
  }

  /** Delivers a batch written by another leader (a follower's view). */
  deliver(batch: CommittedBatch): void {
    this.endOffset = Math.max(this.endOffset, batch.lastOffset + 1);
    for (const listener of this.listeners) listener.handleCommit(batch);
  }
}

/** A clock and timers that move only when the test advances them. */
export class ManualTimers implements Clock, Timers {
  private elapsedMs = 0;
  private readonly scheduled: { atMs: number; callback: () => void; isCancelled: boolean }[] = [];

  nowMs(): number {
    return 1_700_000_000_000 + this.elapsedMs;
  }

  monotonicMs(): number {
    return this.elapsedMs;
  }

  schedule(delayMs: number, callback: () => void): Timer {
    const entry = { atMs: this.elapsedMs + delayMs, callback, isCancelled: false };
    this.scheduled.push(entry);
    return { cancel: () => (entry.isCancelled = true) };
  }

  /** Moves time to `targetMs`, firing due timers in time order at their own times. */
  async advanceTo(targetMs: number): Promise<void> {
    for (;;) {
      const due = this.scheduled
        .filter((entry) => !entry.isCancelled && entry.atMs <= targetMs)
        .sort((a, b) => a.atMs - b.atMs)[0];
      if (due === undefined) break;
      due.isCancelled = true;
      this.elapsedMs = Math.max(this.elapsedMs, due.atMs);
      due.callback();
      await flushPromises();
    }
    this.elapsedMs = targetMs;
  }
}

/** A logger that keeps its lines. */
export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; fields: LogFields | undefined }[] = [];
  debug(message: string, fields?: LogFields): void {
    this.lines.push({ level: "debug", message, fields });
  }
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: "error", message, fields });
  }
  child(): Logger {
    return this;
  }
}

/** A metrics sink that keeps the last value of each gauge and every histogram observation. */
export class RecordingMetrics implements MetricsSink {
  readonly gauges = new Map<string, number>();
  readonly observations = new Map<string, number[]>();
  counter() {
    return { inc: () => undefined };
  }
  gauge(name: string): Gauge {
    return { set: (value) => void this.gauges.set(name, value) };
  }
  histogram(name: string, _help: string, labels?: Readonly<Record<string, string>>): Histogram {
    const key = `${name}${JSON.stringify(labels ?? {})}`;
    return {
      observe: (value) =>
        void this.observations.set(key, [...(this.observations.get(key) ?? []), value]),
    };
  }
}

/** A seeded xorshift32 source: the same seed gives the same draws. */
export class SequenceRandom implements Random {
  constructor(private state: number) {
    if (this.state === 0) this.state = 1;
  }
  nextUint32(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }
  nextFloat(): number {
    return this.nextUint32() / 2 ** 32;
  }
  nextInt(boundExclusive: number): number {
    return Math.floor(this.nextFloat() * boundExclusive);
  }
  fill(target: Uint8Array): Uint8Array {
    for (let index = 0; index < target.length; index++) target[index] = this.nextUint32() & 0xff;
    return target;
  }
}
