/**
 * The cluster simulation's checker. Every member (controller or broker incarnation) reports each
 * committed batch it delivers; the first report of an offset makes it part of the committed
 * history, and every later report of that offset must agree with it byte for byte, so the
 * batches any node sees are a prefix of one history and a controller failover loses nothing
 * committed. Each new batch of that history is checked record by record against the image
 * before it (partition-rules.ts):
 *
 * - no committed image has a partition led by a fenced or unregistered broker;
 * - a new leader comes from the previous ISR or ELR, unless the topic allows unclean election,
 *   and then the change marks the leader RECOVERING;
 * - leader epochs and partition epochs never decrease.
 *
 * At the end, `checkConverged` compares the images of every live node (imageToPlain).
 */
import type { CommittedBatch, LoadedSnapshot, MetadataImage } from "../../src/metadata/index.js";
import { MetadataLoader, imageToPlain, imageToRecords } from "../../src/metadata/index.js";
import { encodeMetadataRecord } from "../../src/protocol/index.js";
import { Fnv1a64 } from "../hash.js";
import { InvariantViolation } from "../workloads/registry.js";
import type { CommitWitness } from "./commit-feed.js";
import { checkFencedLeaders, checkRecord } from "./partition-rules.js";

interface HistoryEntry {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  readonly isControl: boolean;
  readonly hash: string;
}

/** A delivered batch: data (with its records) or a KRaft control batch (records left out). */
export type DeliveredBatch = CommittedBatch & { readonly isControl: boolean };

function hashOf(batch: DeliveredBatch): string {
  const hash = new Fnv1a64();
  for (const record of batch.records) hash.updateText(`${record.length}:`).updateBytes(record);
  return hash.hex();
}

/** A node whose image the end check compares. */
export interface ConvergingNode {
  readonly name: string;
  readonly image: MetadataImage;
}

/** The committed history of one run and the checks against it. */
export class ClusterChecker implements CommitWitness {
  private readonly history: HistoryEntry[] = [];
  private readonly indexByBase = new Map<number, number>();
  private readonly imageAfter = new Map<number, MetadataImage>();
  private readonly stepLoader = new MetadataLoader({ nowMs: 0 });
  private coveredEnd = 0;
  /** How many leader changes the history holds, for the run's summary. */
  leaderChanges = 0;
  uncleanElections = 0;

  /** The offset after the last committed batch any node delivered. */
  get committedEndOffset(): number {
    return this.coveredEnd;
  }

  /** The image of the whole committed history seen so far. */
  get committedImage(): MetadataImage {
    return this.stepLoader.image;
  }

  delivered(member: string, batch: DeliveredBatch): void {
    const entry: HistoryEntry = {
      baseOffset: batch.baseOffset,
      lastOffset: batch.lastOffset,
      epoch: batch.epoch,
      isControl: batch.isControl,
      hash: hashOf(batch),
    };
    if (batch.baseOffset < this.coveredEnd) return this.checkKnown(member, entry);
    if (batch.baseOffset !== this.coveredEnd) {
      this.fail(
        "committed history without gaps",
        `${member} delivered offset ${batch.baseOffset} after ${this.coveredEnd - 1}`,
      );
    }
    this.indexByBase.set(entry.baseOffset, this.history.length);
    this.history.push(entry);
    this.coveredEnd = batch.lastOffset + 1;
    if (!batch.isControl) this.replay(batch);
    this.imageAfter.set(this.coveredEnd, this.stepLoader.image);
  }

  snapshotAt(endOffset: number): LoadedSnapshot {
    const image = this.imageAfter.get(endOffset);
    if (image === undefined) {
      this.fail(
        "snapshots hold committed history",
        `a snapshot at ${endOffset} is not at a committed batch boundary (history ends at ` +
          `${this.coveredEnd})`,
      );
    }
    const records = imageToRecords(image).map((record) => encodeMetadataRecord(record));
    return { snapshotId: { endOffset, epoch: this.epochAt(endOffset - 1) }, records };
  }

  /**
   * The end check: every node's image states the same facts as the first (the active
   * controller), and that is the committed history's image.
   */
  checkConverged(nodes: readonly ConvergingNode[]): void {
    const reference = nodes[0];
    if (reference === undefined) return;
    const expected = JSON.stringify(imageToPlain(this.committedImage));
    for (const node of nodes) {
      const actual = JSON.stringify(imageToPlain(node.image));
      if (actual !== expected) {
        this.fail(
          "every node's image converges to the committed image",
          `${node.name} holds ${actual}\n  the committed history holds ${expected}`,
        );
      }
    }
  }

  private replay(batch: CommittedBatch): void {
    batch.records.forEach((bytes, index) => {
      const offset = batch.baseOffset + index;
      const before = this.stepLoader.image;
      this.stepLoader.handleCommit({
        baseOffset: offset,
        lastOffset: offset,
        epoch: batch.epoch,
        records: [bytes],
      });
      const outcome = checkRecord(bytes, before, this.stepLoader.image);
      if (outcome.kind === "violation") {
        this.fail(outcome.invariant, `offset ${offset}: ${outcome.detail}`);
      }
      if (outcome.kind === "leaderChange") {
        this.leaderChanges += 1;
        if (outcome.isUnclean) this.uncleanElections += 1;
      }
    });
    const fenced = checkFencedLeaders(this.stepLoader.image);
    if (fenced !== undefined) {
      this.fail("a fenced broker never leads", `after offset ${batch.lastOffset}: ${fenced}`);
    }
  }

  private checkKnown(member: string, entry: HistoryEntry): void {
    const index = this.indexByBase.get(entry.baseOffset);
    const known = index === undefined ? undefined : this.history[index];
    const same =
      known !== undefined &&
      known.lastOffset === entry.lastOffset &&
      known.epoch === entry.epoch &&
      known.isControl === entry.isControl &&
      known.hash === entry.hash;
    if (!same) {
      this.fail(
        "no committed change is lost or changed",
        `${member} delivered ${JSON.stringify(entry)} where the history has ` +
          `${JSON.stringify(known ?? "no batch starting there")}`,
      );
    }
  }

  private epochAt(offset: number): number {
    let epoch = 0;
    for (const entry of this.history) if (entry.baseOffset <= offset) epoch = entry.epoch;
    return epoch;
  }

  private fail(invariant: string, detail: string): never {
    throw new InvariantViolation(`${invariant}: ${detail}`);
  }
}
