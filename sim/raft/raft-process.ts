/**
 * One simulated controller process: a pure RaftNode driven as src/raft/README.md says, on the
 * simulator's scheduler, message transport and a modelled disk. States: up → (pause) → paused
 * → (resume) → up; up or paused → (crash) → down → (restart) → up. A pause holds every event of
 * the process (messages, timers, fsync completions) and runs them in order when it ends; a
 * crash loses memory, timers and unflushed writes, and a restart rebuilds the node from what
 * the disk kept.
 */
import { assert } from "../../src/common/index.js";
import type { Timer } from "../../src/ports/index.js";
import {
  RaftNode,
  type RaftConfig,
  type RaftOutput,
  type SnapshotAction,
} from "../../src/raft/index.js";
import type { SimNode } from "../node.js";
import type { SeededRandom } from "../random.js";
import type { Scheduler } from "../scheduler.js";
import type { SimNetwork } from "../net/sim-network.js";
import type { CheckedReplica, RaftChecker } from "./checker.js";
import { storedBatchOf, type DiskOperation, type DiskState } from "./disk-state.js";
import { durabilityInputs } from "./durability-inputs.js";
import { ModeledDisk } from "./modeled-disk.js";
import { ProcessMessaging } from "./process-messaging.js";
import { ProcessQueue } from "./process-queue.js";
import { fillResponse } from "./responses.js";
import { flushLatencyMs, nodeName, type RaftEnvelope } from "./settings.js";
import { maybeWriteSnapshot } from "./snapshot-writer.js";

/** What a process needs from the simulated world. */
export interface ProcessWorld {
  readonly scheduler: Scheduler;
  readonly network: SimNetwork<RaftEnvelope>;
  readonly checker: RaftChecker;
  readonly processes: readonly RaftProcess[];
}

/** A simulated controller process. */
export class RaftProcess implements CheckedReplica {
  node: RaftNode | null = null;
  readonly disk = new ModeledDisk();
  /** True while a snapshot this process writes waits for its flush. */
  isWritingSnapshot = false;
  private readonly simNode: SimNode;
  /** Requests and responses over the simulated controller listener. */
  readonly messaging: ProcessMessaging;
  private readonly queue = new ProcessQueue();
  /** The output whose disk writes wait for an fsync; the rest of it is applied after. */
  private blockedOutput: { readonly mark: number; readonly finish: () => void } | null = null;
  private isFlushing = false;
  private wakeup: { readonly timer: Timer; readonly atMs: number } | null = null;

  constructor(
    readonly id: number,
    readonly config: RaftConfig,
    private readonly world: ProcessWorld,
  ) {
    this.simNode = world.scheduler.node(nodeName(id));
    this.messaging = new ProcessMessaging(this, world);
  }

  get name(): string {
    return this.simNode.name;
  }

  get incarnation(): number {
    return this.simNode.incarnation;
  }

  get isUp(): boolean {
    return this.simNode.isUp;
  }

  /** True when the process runs and is not paused: it answers at once. */
  get isResponsive(): boolean {
    return this.simNode.isUp && !this.queue.isPaused;
  }

  get visibleDisk(): DiskState {
    return this.disk.visible;
  }

  get durableDisk(): DiskState {
    return this.disk.durableState;
  }

  /** The process's random stream in this incarnation. */
  random(label: string): SeededRandom {
    return this.world.scheduler.random.fork(`raft/${this.id}/${this.incarnation}/${label}`);
  }

  /** Starts the process from its disk (at the beginning and after each restart). */
  start(): void {
    const nowMs = this.world.scheduler.nowMs();
    const state = this.disk.visible;
    this.node = new RaftNode({
      config: this.config,
      random: this.random("node"),
      electionState: state.electionState,
      log: state.shape(),
      nowMs,
    });
    this.world.network.onMessage(this.name, (envelope, from) =>
      this.queue.enqueue(() => this.messaging.receive(envelope, from)),
    );
    this.world.scheduler.record(
      `${this.name} start as ${this.node.state.kind} epoch ${this.node.epoch}`,
    );
    this.input((node) => node.tick(nowMs));
    this.scheduleSnapshots();
  }

  /** Kills the process: memory, timers and unflushed writes are lost. */
  crash(): void {
    assert(this.simNode.isUp, "only a running process crashes");
    const highWatermark = this.world.checker.announcedHighWatermark(this);
    this.simNode.crash();
    this.disk.crash(this.random("crash"));
    this.node = null;
    this.messaging.reset();
    this.queue.reset();
    this.blockedOutput = null;
    this.isFlushing = false;
    this.wakeup = null;
    this.isWritingSnapshot = false;
    this.world.checker.afterCrash(this, highWatermark);
    for (const other of this.world.processes) other.messaging.peerCrashed(this.id);
  }

  /** Brings a crashed process back from its disk. */
  restart(): void {
    this.simNode.restart();
    this.start();
  }

  /** Stops the process's events for `durationMs` without losing anything (a GC pause). */
  pause(durationMs: number): void {
    if (!this.isResponsive) return;
    this.queue.pause();
    this.world.scheduler.record(`${this.name} pause ${durationMs}`);
    this.world.scheduler.schedule(durationMs, () => this.resume(), {
      node: this.simNode,
      label: "resume",
    });
  }

  /** Ends a pause early (the healing phase); the held events run now, in order. */
  resume(): void {
    this.queue.resume();
  }

  /** Runs `event` in the process's turn: after what is queued, not while paused or blocked. */
  enqueue(event: () => void): void {
    this.queue.enqueue(event);
  }

  /** Gives the node an input and applies its output, then lets the checker look. */
  input(handle: (node: RaftNode, nowMs: number) => RaftOutput): void {
    const node = this.node;
    if (node === null) return;
    const output = handle(node, this.world.scheduler.nowMs());
    this.apply(output);
    this.world.checker.afterInput(this);
  }

  /** Schedules an event of this incarnation, run in the process's turn. */
  later(delayMs: number, label: string, callback: () => void): Timer {
    const run = (): void => this.queue.enqueue(callback);
    return this.world.scheduler.schedule(delayMs, run, { node: this.simNode, label });
  }

  private scheduleSnapshots(): void {
    const random = this.random("snapshots");
    const loop = (): void => {
      maybeWriteSnapshot(this, this.world.checker, this.world.scheduler.nowMs());
      this.later(random.between(150, 600), "snapshot", loop);
    };
    this.later(random.between(150, 600), "snapshot", loop);
  }

  /**
   * Applies an output in the order the README prescribes: the disk parts now; once they are
   * durable, the sends, the high watermark and the leader change. Until then the node gets no
   * other input.
   */
  private apply(output: RaftOutput): void {
    if (output.quorumState !== null) {
      this.disk.write({ kind: "electionState", state: output.quorumState });
    }
    if (output.truncateTo !== null) {
      this.disk.write({ kind: "truncate", endOffset: output.truncateTo });
    }
    if (output.append !== null) {
      const batches = output.append.batches.map((bytes) => storedBatchOf(bytes));
      this.disk.write({ kind: "append", batches, generation: this.disk.generation });
    }
    for (const action of output.snapshotActions) this.applySnapshotAction(action);
    const finish = (): void => this.finishOutput(output);
    if (!this.disk.hasUnflushed) return finish();
    this.blockedOutput = { mark: this.disk.issuedCount, finish };
    this.queue.setBlocked(true);
    this.maybeFlush();
  }

  private finishOutput(output: RaftOutput): void {
    for (const message of output.send) {
      this.messaging.send(fillResponse(this.disk.visible, message));
    }
    if (output.highWatermark !== null) {
      this.world.checker.highWatermarkMoved(this, output.highWatermark);
    }
    if (output.leaderChanged !== null) {
      const change = output.leaderChanged;
      this.world.scheduler.record(`${this.name} leader ${change.leaderId} epoch ${change.epoch}`);
    }
    this.scheduleWakeup(output.wakeupAtMs);
  }

  private applySnapshotAction(action: SnapshotAction): void {
    const operation: DiskOperation = action;
    this.disk.write(operation);
    if (action.kind === "installSnapshot") {
      const installed = this.disk.visible.latestSnapshot();
      if (installed !== undefined) this.world.checker.snapshotAppeared(this, installed);
    }
  }

  /** Starts an fsync of everything written so far, unless one is running. */
  maybeFlush(): void {
    if (this.isFlushing || !this.disk.hasUnflushed) return;
    this.isFlushing = true;
    const mark = this.disk.issuedCount;
    const latencyMs = this.world.scheduler.random.between(flushLatencyMs.min, flushLatencyMs.max);
    const complete = (): void => this.queue.runUnlessPaused(() => this.flushed(mark));
    this.world.scheduler.schedule(latencyMs, complete, { node: this.simNode, label: "fsync" });
  }

  /**
   * An fsync completed: the blocked output is applied to its end, then the node hears what
   * became durable (before any later input), and the next fsync starts if writes wait.
   */
  private flushed(mark: number): void {
    this.isFlushing = false;
    const operations = this.disk.flush(mark);
    this.queue.enqueueFirst(durabilityInputs(this, operations));
    const blocked = this.blockedOutput;
    this.maybeFlush();
    if (blocked !== null && blocked.mark <= this.disk.durableCount) {
      this.blockedOutput = null;
      blocked.finish();
    }
    this.queue.setBlocked(this.blockedOutput !== null);
  }

  private scheduleWakeup(atMs: number): void {
    if (!Number.isFinite(atMs)) return;
    if (this.wakeup !== null && this.wakeup.atMs === atMs) return;
    this.wakeup?.timer.cancel();
    const delayMs = Math.max(0, atMs - this.world.scheduler.nowMs());
    const timer = this.later(delayMs, "tick", () => {
      this.wakeup = null;
      this.input((node, nowMs) => node.tick(nowMs));
    });
    this.wakeup = { timer, atMs };
  }
}
