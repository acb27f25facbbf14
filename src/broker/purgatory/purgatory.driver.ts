import type { Clock, Timer, Timers } from "../../ports/index.js";
import type { DelayedOperation } from "./delayed-operation.js";
import { PURGE_INTERVAL_DEFAULT, PurgatoryCore } from "./purgatory-core.js";

/** What a purgatory reads time from and schedules its one timer with. */
export interface PurgatoryPorts {
  readonly clock: Clock;
  readonly timers: Timers;
}

/** Options of a purgatory. */
export interface PurgatoryOptions {
  /** Names the purgatory in logs and metrics ("Produce", "Fetch"). */
  readonly name: string;
  /** Stale entries tolerated before a purge (Kafka's `purgatory.purge.interval.requests`). */
  readonly purgeInterval?: number;
}

/**
 * Kafka's DelayedOperationPurgatory over the Timers port: operations wait under watch keys until
 * a wake-up completes them or their deadline passes. Expiry uses ONE timer, armed for the
 * earliest deadline and re-armed after it fires or when an earlier deadline arrives; there is no
 * timer per operation. States: open → closed; `close` expires everything still pending, and an
 * operation handed over after that that cannot complete at once expires at once, so no request
 * is left unanswered.
 */
export class DelayedOperationPurgatory {
  readonly name: string;
  private readonly core: PurgatoryCore;
  private armed: { readonly timer: Timer; readonly deadlineMs: number } | undefined;
  private isClosed = false;

  constructor(
    private readonly ports: PurgatoryPorts,
    options: PurgatoryOptions,
  ) {
    this.name = options.name;
    this.core = new PurgatoryCore(options.purgeInterval ?? PURGE_INTERVAL_DEFAULT);
  }

  /** How many operations wait. */
  get pendingCount(): number {
    return this.core.pendingCount;
  }

  /** Entries of completed operations not purged yet (bounded by the purge interval). */
  get staleCount(): number {
    return this.core.staleCount;
  }

  /** The deadline the timer is armed for, or undefined when no timer is armed. */
  get armedDeadlineMs(): number | undefined {
    return this.armed?.deadlineMs;
  }

  /** How many entries the list of `key` holds, stale ones included. */
  watchedCount(key: string): number {
    return this.core.watchedCount(key);
  }

  /**
   * Completes `operation` now when `tryComplete` says it can, else watches it under `keys`
   * until `checkAndComplete` of one of them completes it or `delayMs` passes. Returns true when
   * it completed at once.
   */
  tryCompleteElseWatch(operation: DelayedOperation, keys: readonly string[]): boolean {
    const nowMs = this.ports.clock.monotonicMs();
    const isDone = this.core.tryCompleteElseWatch(operation, keys, nowMs);
    if (isDone) return true;
    if (this.isClosed) this.core.expireAll();
    else this.rearm(nowMs);
    return false;
  }

  /** Tries the operations watched under `key`; returns how many completed. */
  checkAndComplete(key: string): number {
    // A completion only removes deadlines, so the armed timer stays correct (at worst early).
    return this.core.checkAndComplete(key, this.ports.clock.monotonicMs());
  }

  /** Expires every pending operation and disarms the timer; returns how many expired. */
  close(): number {
    this.isClosed = true;
    this.disarm();
    return this.core.expireAll();
  }

  private onTimer(): void {
    this.armed = undefined;
    const nowMs = this.ports.clock.monotonicMs();
    this.core.expireDue(nowMs);
    if (!this.isClosed) this.rearm(nowMs);
  }

  /** Arms the timer for the earliest pending deadline unless it is armed for that or sooner. */
  private rearm(nowMs: number): void {
    const nextMs = this.core.nextDeadlineMs();
    if (nextMs === undefined) {
      this.disarm();
      return;
    }
    if (this.armed !== undefined && this.armed.deadlineMs <= nextMs) return;
    this.disarm();
    const timer = this.ports.timers.schedule(Math.max(0, nextMs - nowMs), () => this.onTimer());
    this.armed = { timer, deadlineMs: nextMs };
  }

  private disarm(): void {
    this.armed?.timer.cancel();
    this.armed = undefined;
  }
}
