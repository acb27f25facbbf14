/**
 * The disk of one simulated controller: every change is visible at once and becomes durable only
 * when a flush that started after it completes, as with write() and fsync(). A crash keeps the
 * durable state and, like a page cache that happened to reach the platter, a random prefix of
 * the changes not yet flushed; everything else is lost.
 */
import type { SeededRandom } from "../random.js";
import { DiskState, type DiskOperation } from "./disk-state.js";

/** The chance that a crash keeps some of the unflushed changes (a random prefix of them). */
const keepUnflushedProbability = 0.3;

/** A disk with a durable state and a visible one. */
export class ModeledDisk {
  /** What the running process sees: the durable state plus every change since. */
  visible = new DiskState();
  /** What survives a crash for certain. */
  private durable = new DiskState();
  private unflushed: DiskOperation[] = [];
  private issued = 0;
  /** Counts truncations and installs: an append of an older generation was cut away. */
  private currentGeneration = 0;

  /** How many operations were issued since the disk was created. */
  get issuedCount(): number {
    return this.issued;
  }

  /** How many operations are durable (every one issued before them is too). */
  get durableCount(): number {
    return this.issued - this.unflushed.length;
  }

  /** The generation of the log's contents; truncations and snapshot installs start a new one. */
  get generation(): number {
    return this.currentGeneration;
  }

  /** True when some change waits for a flush. */
  get hasUnflushed(): boolean {
    return this.unflushed.length > 0;
  }

  /** The durable contents, for checkers (read only). */
  get durableState(): DiskState {
    return this.durable;
  }

  /** Makes a change visible; it waits for a flush to become durable. */
  write(operation: DiskOperation): void {
    if (operation.kind === "truncate" || operation.kind === "installSnapshot")
      this.currentGeneration += 1;
    this.visible.apply(operation);
    this.unflushed.push(operation);
    this.issued += 1;
  }

  /** Makes the operations issued before `issuedMark` durable; returns them in order. */
  flush(issuedMark: number): DiskOperation[] {
    const count = Math.max(0, issuedMark - this.durableCount);
    const flushed = this.unflushed.splice(0, count);
    for (const operation of flushed) this.durable.apply(operation);
    return flushed;
  }

  /** A power cut: the visible state becomes the durable one plus a random unflushed prefix. */
  crash(random: SeededRandom): void {
    const kept = random.chance(keepUnflushedProbability)
      ? random.between(0, this.unflushed.length)
      : 0;
    this.flush(this.durableCount + kept);
    this.unflushed = [];
    this.visible = this.durable.clone();
  }
}
