import { assert } from "../../common/index.js";
import { DeadlineHeap, type DeadlineItem } from "./deadline-heap.js";
import type { CompletionReason, DelayedOperation } from "./delayed-operation.js";
import { WatchLists } from "./watch-lists.js";

/** Kafka's default `purgatory.purge.interval.requests`: stale entries tolerated before a purge. */
export const PURGE_INTERVAL_DEFAULT = 1000;

/** One operation in the purgatory. States: pending → completed, never back. */
interface PurgatoryEntry extends DeadlineItem {
  readonly operation: DelayedOperation;
  readonly keys: readonly string[];
  isCompleted: boolean;
}

/**
 * The pure part of a purgatory: the deadline heap and the watch lists, driven by explicit times.
 * It owns the exactly-once rule: an entry is marked completed before any callback runs, so a
 * wake-up and an expiry that race (or a callback that re-enters) complete it once.
 *
 * Bounds: pending operations are bounded by the requests the connection layer lets in flight;
 * entries of completed operations left in other keys' lists or in the heap are purged once more
 * than `purgeInterval` of them pile up (Kafka's purge interval), so memory stays proportional to
 * the pending operations.
 */
export class PurgatoryCore {
  private readonly heap = new DeadlineHeap<PurgatoryEntry>();
  private readonly watchLists = new WatchLists<PurgatoryEntry>();
  private readonly pending = new Set<DelayedOperation>();
  private staleWatches = 0;
  private staleDeadlines = 0;
  private nextSequence = 0;

  constructor(readonly purgeInterval: number = PURGE_INTERVAL_DEFAULT) {
    assert(Number.isInteger(purgeInterval) && purgeInterval >= 0, "purgeInterval is a count");
  }

  /** How many operations wait. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Entries of completed operations still held in watch lists or the heap. */
  get staleCount(): number {
    return this.staleWatches + this.staleDeadlines;
  }

  /** How many entries the list of `key` holds, stale ones included. */
  watchedCount(key: string): number {
    return this.watchLists.watchedCount(key);
  }

  /**
   * Completes `operation` at once when it can, else watches it under every key until a wake-up
   * completes it or its deadline (`nowMs + delayMs`) passes. Returns true when it completed now.
   */
  tryCompleteElseWatch(
    operation: DelayedOperation,
    keys: readonly string[],
    nowMs: number,
  ): boolean {
    assert(keys.length > 0, "a delayed operation is watched under at least one key");
    assert(!this.pending.has(operation), "a delayed operation is handed over once");
    assert(operation.delayMs >= 0 && Number.isFinite(operation.delayMs), "delayMs is finite");
    if (operation.tryComplete(nowMs)) {
      operation.onComplete();
      return true;
    }
    const entry: PurgatoryEntry = {
      operation,
      keys: [...new Set(keys)],
      deadlineMs: nowMs + operation.delayMs,
      sequence: this.nextSequence++,
      isCompleted: false,
    };
    this.pending.add(operation);
    for (const key of entry.keys) this.watchLists.add(key, entry);
    this.heap.push(entry);
    return false;
  }

  /**
   * Tries every pending operation watched under `key`, in the order they were added, and
   * completes those that can; returns how many completed. Called when something they wait for
   * changed (an append, a high-watermark move).
   */
  checkAndComplete(key: string, nowMs: number): number {
    let completed = 0;
    for (const entry of this.watchLists.snapshot(key)) {
      if (entry.isCompleted) continue;
      if (!entry.operation.tryComplete(nowMs)) continue;
      // tryComplete may have re-entered and completed it through another key.
      if (entry.isCompleted) continue;
      this.staleDeadlines++;
      this.complete(entry, "completed");
      completed++;
    }
    this.staleWatches -= this.watchLists.purgeKey(key, isCompleted);
    return completed;
  }

  /** Expires every pending operation whose deadline is at or before `nowMs`, earliest first. */
  expireDue(nowMs: number): number {
    let expired = 0;
    for (let top = this.heap.peek(); top !== undefined; top = this.heap.peek()) {
      if (top.deadlineMs > nowMs) break;
      this.heap.pop();
      if (top.isCompleted) {
        this.staleDeadlines--;
        continue;
      }
      this.complete(top, "expired");
      expired++;
    }
    return expired;
  }

  /** Expires every pending operation, earliest deadline first (the purgatory shuts down). */
  expireAll(): number {
    return this.expireDue(Number.POSITIVE_INFINITY);
  }

  /** The earliest deadline of a pending operation, or undefined when none waits. */
  nextDeadlineMs(): number | undefined {
    for (let top = this.heap.peek(); top !== undefined; top = this.heap.peek()) {
      if (!top.isCompleted) return top.deadlineMs;
      this.heap.pop();
      this.staleDeadlines--;
    }
    return undefined;
  }

  private complete(entry: PurgatoryEntry, reason: CompletionReason): void {
    assert(!entry.isCompleted, "a delayed operation completes once");
    entry.isCompleted = true;
    this.pending.delete(entry.operation);
    this.staleWatches += entry.keys.length;
    entry.operation.onComplete();
    if (reason === "expired") entry.operation.onExpiration();
    this.maybePurge();
  }

  private maybePurge(): void {
    if (this.staleWatches > this.purgeInterval) {
      this.staleWatches -= this.watchLists.purgeAll(isCompleted);
      assert(this.staleWatches === 0, "a purge leaves no stale watch");
    }
    if (this.staleDeadlines > this.purgeInterval) {
      this.heap.rebuild((entry) => !entry.isCompleted);
      this.staleDeadlines = 0;
    }
  }
}

function isCompleted(entry: PurgatoryEntry): boolean {
  return entry.isCompleted;
}
