/**
 * When a node should write a new metadata snapshot, as Kafka's SnapshotGenerator decides it:
 * once `metadata.log.max.record.bytes.between.snapshots` bytes of records were applied since the
 * last snapshot, or once `metadata.log.max.snapshot.interval.ms` has passed (0 turns the time
 * rule off). Pure: time comes in as nowMs.
 */
import { assert } from "../common/index.js";

/** Kafka's default of metadata.log.max.record.bytes.between.snapshots: 20 MiB. */
export const DEFAULT_MAX_BYTES_BETWEEN_SNAPSHOTS = 20 * 1024 * 1024;
/** Kafka's default of metadata.log.max.snapshot.interval.ms: one hour. */
export const DEFAULT_MAX_SNAPSHOT_INTERVAL_MS = 60 * 60 * 1000;

/** The two snapshot triggers, under their Kafka config names. */
export interface SnapshotPolicyConfig {
  /** metadata.log.max.record.bytes.between.snapshots */
  readonly maxBytesBetweenSnapshots: number;
  /** metadata.log.max.snapshot.interval.ms; 0 disables the time trigger. */
  readonly maxSnapshotIntervalMs: number;
}

export type SnapshotReason = "bytes" | "interval";

/** Counts the bytes applied since the last snapshot and the time it was taken. */
export class SnapshotPolicy {
  private bytesSinceLastSnapshot = 0;
  private lastSnapshotMs: number;

  constructor(
    private readonly config: SnapshotPolicyConfig,
    nowMs: number,
  ) {
    assert(config.maxBytesBetweenSnapshots > 0, "maxBytesBetweenSnapshots is positive");
    assert(config.maxSnapshotIntervalMs >= 0, "maxSnapshotIntervalMs is not negative");
    this.lastSnapshotMs = nowMs;
  }

  /** Bytes of committed records applied since the last snapshot. */
  get bytesSinceSnapshot(): number {
    return this.bytesSinceLastSnapshot;
  }

  recordApplied(bytes: number): void {
    this.bytesSinceLastSnapshot += bytes;
  }

  /**
   * Why a snapshot is due at `nowMs`, or undefined. Nothing is due while no record was applied
   * since the last snapshot, so an idle node does not write the same image again and again.
   */
  reasonDue(nowMs: number): SnapshotReason | undefined {
    if (this.bytesSinceLastSnapshot === 0) return undefined;
    if (this.bytesSinceLastSnapshot >= this.config.maxBytesBetweenSnapshots) return "bytes";
    const interval = this.config.maxSnapshotIntervalMs;
    if (interval !== 0 && nowMs - this.lastSnapshotMs >= interval) return "interval";
    return undefined;
  }

  /** A snapshot was written (or loaded) at `nowMs`: both counters start again. */
  reset(nowMs: number): void {
    this.bytesSinceLastSnapshot = 0;
    this.lastSnapshotMs = nowMs;
  }

  /** A snapshot was loaded from the leader: the bytes it covers no longer count. */
  resetBytes(): void {
    this.bytesSinceLastSnapshot = 0;
  }
}
