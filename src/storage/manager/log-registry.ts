/**
 * The log manager's bookkeeping, synchronous and free of I/O: which dirs are online, which log
 * of each partition lives where (current and future), which partitions were lost with a failed
 * dir, the high watermarks the replication layer reported, and the folders waiting to be
 * deleted. Generic over the log type so that it can be tested without files.
 *
 * A dir is online until it fails; a failed dir stays offline until the process restarts (as in
 * Kafka), or, when it failed because its disk was full, until the disk has room again
 * (log-dir-recovery.driver.ts). A partition key is `<topic>-<partition>`.
 */
import { assert } from "../../common/index.js";
import type { PartitionLog, TopicPartition } from "../log/index.js";
import { currentDirName } from "./partition-dir-name.js";
import type { PlacementCandidate } from "./placement.js";

/** A log the manager holds, and where. */
export interface HeldLog<L> {
  readonly log: L;
  readonly logDir: string;
  readonly topicPartition: TopicPartition;
  readonly isFuture: boolean;
}

/** A folder renamed `-delete`, and when it may go. */
export interface PendingDeletion {
  readonly logDir: string;
  readonly path: string;
  readonly dueMs: number;
}

/** Where the current log of a partition is, or why there is none (LogManager.getLog). */
export type LogLookup<L = PartitionLog> =
  | { readonly kind: "online"; readonly log: L; readonly logDir: string }
  /** The log is in a dir that failed: KAFKA_STORAGE_ERROR. */
  | { readonly kind: "offlineDir"; readonly logDir: string }
  | { readonly kind: "notFound" };

/** What a dir failure removed. */
export interface RemovedByFailure<L> {
  readonly logs: readonly HeldLog<L>[];
  readonly isLastOnlineDir: boolean;
}

export class LogRegistry<L> {
  private readonly onlineDirs: Set<string>;
  private readonly currentLogs = new Map<string, HeldLog<L>>();
  private readonly futureLogs = new Map<string, HeldLog<L>>();
  /** Partitions whose current log was in a dir that failed, and that dir. */
  private readonly offlinePartitions = new Map<string, string>();
  private pendingDeletions: PendingDeletion[] = [];
  /** High watermarks by partition key, as the replication layer last gave them. */
  readonly highWatermarks = new Map<string, number>();

  /** `logDirs` in `log.dirs` order; `offlineDirs` failed at start. */
  constructor(
    readonly logDirs: readonly string[],
    offlineDirs: readonly string[],
  ) {
    this.onlineDirs = new Set(logDirs.filter((dir) => !offlineDirs.includes(dir)));
  }

  isOnline(logDir: string): boolean {
    return this.onlineDirs.has(logDir);
  }

  /** The online dirs, in `log.dirs` order. */
  liveLogDirs(): string[] {
    return this.logDirs.filter((dir) => this.onlineDirs.has(dir));
  }

  /** Adds a log; there is at most one current and one future log per partition. */
  add(held: HeldLog<L>): void {
    assert(this.isOnline(held.logDir), "logs are added to online dirs only");
    const logs = held.isFuture ? this.futureLogs : this.currentLogs;
    const key = currentDirName(held.topicPartition);
    assert(!logs.has(key), `one ${held.isFuture ? "future" : "current"} log of ${key}`);
    logs.set(key, held);
    if (!held.isFuture) this.offlinePartitions.delete(key);
  }

  /** Removes and returns the current (or future) log of a partition. */
  remove(topicPartition: TopicPartition, isFuture: boolean): HeldLog<L> | undefined {
    const logs = isFuture ? this.futureLogs : this.currentLogs;
    const key = currentDirName(topicPartition);
    const held = logs.get(key);
    logs.delete(key);
    return held;
  }

  current(topicPartition: TopicPartition): HeldLog<L> | undefined {
    return this.currentLogs.get(currentDirName(topicPartition));
  }

  future(topicPartition: TopicPartition): HeldLog<L> | undefined {
    return this.futureLogs.get(currentDirName(topicPartition));
  }

  lookup(topicPartition: TopicPartition): LogLookup<L> {
    const held = this.current(topicPartition);
    if (held !== undefined) return { kind: "online", log: held.log, logDir: held.logDir };
    const offlineDir = this.offlineDirOf(topicPartition);
    if (offlineDir !== undefined) return { kind: "offlineDir", logDir: offlineDir };
    return { kind: "notFound" };
  }

  /** The failed dir that held the partition's current log, if it was lost that way. */
  offlineDirOf(topicPartition: TopicPartition): string | undefined {
    return this.offlinePartitions.get(currentDirName(topicPartition));
  }

  /** Current logs, in no particular order. */
  allCurrent(): HeldLog<L>[] {
    return [...this.currentLogs.values()];
  }

  allFuture(): HeldLog<L>[] {
    return [...this.futureLogs.values()];
  }

  /** The current and future logs in `logDir`. */
  logsIn(logDir: string): HeldLog<L>[] {
    return [...this.currentLogs.values(), ...this.futureLogs.values()].filter(
      (held) => held.logDir === logDir,
    );
  }

  /** The dirs as placement sees them: online or not, and how many logs each holds. */
  placementCandidates(): PlacementCandidate[] {
    return this.logDirs.map((dir) => ({
      dir,
      isOnline: this.isOnline(dir),
      logCount: this.isOnline(dir) ? this.logsIn(dir).length : 0,
    }));
  }

  /**
   * Takes `logDir` offline: its logs leave the registry (the caller closes them), its current
   * partitions are remembered as offline, its pending deletions are dropped. Undefined when the
   * dir was offline already, so that each failure is reported once.
   */
  markOffline(logDir: string): RemovedByFailure<L> | undefined {
    if (!this.onlineDirs.delete(logDir)) return undefined;
    const logs = this.logsIn(logDir);
    for (const held of logs) {
      const key = currentDirName(held.topicPartition);
      (held.isFuture ? this.futureLogs : this.currentLogs).delete(key);
      if (!held.isFuture) this.offlinePartitions.set(key, logDir);
    }
    this.pendingDeletions = this.pendingDeletions.filter((entry) => entry.logDir !== logDir);
    return { logs, isLastOnlineDir: this.onlineDirs.size === 0 };
  }

  /**
   * Brings `logDir` back online after a failure (its disk has room again); its logs are then
   * added as they load. Partitions remembered as offline in it are so no more. False when the
   * dir was online.
   */
  markOnline(logDir: string): boolean {
    assert(this.logDirs.includes(logDir), "only a configured dir comes back online");
    if (this.onlineDirs.has(logDir)) return false;
    this.onlineDirs.add(logDir);
    for (const [key, dir] of [...this.offlinePartitions]) {
      if (dir === logDir) this.offlinePartitions.delete(key);
    }
    return true;
  }

  /** Remembers a `-delete` folder to remove at `dueMs`. */
  addPendingDeletion(deletion: PendingDeletion): void {
    assert(this.isOnline(deletion.logDir), "deletions are scheduled in online dirs only");
    this.pendingDeletions.push(deletion);
  }

  /** Removes and returns the deletions due at `nowMs`. */
  takeDueDeletions(nowMs: number): PendingDeletion[] {
    const due = this.pendingDeletions.filter((entry) => entry.dueMs <= nowMs);
    this.pendingDeletions = this.pendingDeletions.filter((entry) => entry.dueMs > nowMs);
    return due;
  }

  /** The deletions not yet due, in the order they were scheduled. */
  pending(): readonly PendingDeletion[] {
    return this.pendingDeletions;
  }
}
