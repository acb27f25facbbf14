/**
 * The metadata loader: turns what the raft layer commits into images and publishes them. It
 * decodes each batch, replays it into a delta, applies the delta at the end of the batch and
 * hands (delta, image, manifest) to every publisher. Snapshots replace the image wholesale.
 *
 * Metadata transactions (KIP-868): the records between BeginTransactionRecord and
 * EndTransactionRecord are published together, never part of them, even across batches; on
 * AbortTransactionRecord they are dropped. States: no transaction -> open (Begin) -> no
 * transaction (End or Abort); Begin while open, or End/Abort while not open, is a broken log.
 */
import { assert } from "../common/index.js";
import { decodeMetadataRecord, isDecodeError, MetadataRecordType } from "../protocol/index.js";
import type { MetadataRecord } from "../protocol/index.js";
import { EMPTY_IMAGE } from "./images.js";
import type { MetadataImage, MetadataProvenance } from "./images.js";
import type { CommittedBatch, LoadedSnapshot, MetadataListener } from "./listener.js";
import { MetadataDelta } from "./metadata-delta.js";
import { MetadataReplayError } from "./metadata-replay-error.js";
import type { LoaderManifest, MetadataPublisher } from "./publisher.js";
import { imageToRecords } from "./snapshot-records.js";
import {
  DEFAULT_MAX_BYTES_BETWEEN_SNAPSHOTS,
  DEFAULT_MAX_SNAPSHOT_INTERVAL_MS,
  SnapshotPolicy,
} from "./snapshot-policy.js";
import type { SnapshotReason } from "./snapshot-policy.js";

/** The snapshot triggers default to Kafka's. */
export interface MetadataLoaderOptions {
  /** The time the loader starts, from which the snapshot interval is counted. */
  readonly nowMs: number;
  readonly maxBytesBetweenSnapshots?: number;
  readonly maxSnapshotIntervalMs?: number;
}

/** Whether the current image should be written as a snapshot now. */
export type SnapshotDecision =
  | { readonly kind: "notDue" }
  | { readonly kind: "due"; readonly reason: SnapshotReason; readonly image: MetadataImage };

const T = MetadataRecordType;

function decodeAt(bytes: Uint8Array, offset: number): MetadataRecord {
  try {
    return decodeMetadataRecord(bytes);
  } catch (cause) {
    if (!isDecodeError(cause)) throw cause;
    throw new MetadataReplayError("undecodable metadata record", { offset, cause });
  }
}

/** Builds images from committed metadata and publishes them. */
export class MetadataLoader implements MetadataListener {
  private current: MetadataImage = EMPTY_IMAGE;
  private delta = new MetadataDelta(EMPTY_IMAGE);
  private readonly publishers: MetadataPublisher[] = [];
  private readonly policy: SnapshotPolicy;
  private isInTransaction = false;
  private isOffsetBatchAligned = true;
  private batchesInDelta = 0;
  private bytesInDelta = 0;
  /** Where the unpublished delta ends, once a batch of it has been replayed. */
  private pendingProvenance: MetadataProvenance | undefined;
  /** The offset of the last record replayed into the unpublished delta. */
  private lastReplayed: number | undefined;

  constructor(options: MetadataLoaderOptions) {
    const config = {
      maxBytesBetweenSnapshots:
        options.maxBytesBetweenSnapshots ?? DEFAULT_MAX_BYTES_BETWEEN_SNAPSHOTS,
      maxSnapshotIntervalMs: options.maxSnapshotIntervalMs ?? DEFAULT_MAX_SNAPSHOT_INTERVAL_MS,
    };
    this.policy = new SnapshotPolicy(config, options.nowMs);
  }

  /** The latest published image. */
  get image(): MetadataImage {
    return this.current;
  }

  /**
   * Adds a publisher. If the loader already has an image, the publisher first gets it whole, as
   * a delta from the empty image with a snapshot manifest, so it never misses a fact.
   */
  register(publisher: MetadataPublisher): void {
    const isNameTaken = this.publishers.some((other) => other.name === publisher.name);
    assert(!isNameTaken, `a publisher named ${publisher.name} is already registered`);
    this.publishers.push(publisher);
    if (this.current.provenance.lastContainedOffset < 0) return;
    const catchUp = new MetadataDelta(EMPTY_IMAGE);
    catchUp.replayAll(imageToRecords(this.current));
    publisher.onMetadataUpdate(catchUp, this.current, {
      kind: "snapshot",
      provenance: this.current.provenance,
    });
  }

  /** Removes the publisher of that name; returns whether there was one. */
  unregister(name: string): boolean {
    const index = this.publishers.findIndex((publisher) => publisher.name === name);
    if (index < 0) return false;
    this.publishers.splice(index, 1);
    return true;
  }

  /** Applies a committed batch and publishes the result unless a transaction is still open. */
  handleCommit(batch: CommittedBatch): void {
    assert(
      batch.lastOffset - batch.baseOffset + 1 === batch.records.length,
      "a batch's offsets match its records",
    );
    assert(batch.baseOffset > this.lastReplayedOffset(), "committed batches arrive in log order");
    let bytes = 0;
    batch.records.forEach((bytesOfRecord, index) => {
      bytes += bytesOfRecord.length;
      this.replayCommitted(decodeAt(bytesOfRecord, batch.baseOffset + index), batch, index);
    });
    this.batchesInDelta += 1;
    this.bytesInDelta += bytes;
    this.pendingProvenance = {
      lastContainedOffset: batch.lastOffset,
      lastContainedEpoch: batch.epoch,
    };
    if (!this.isInTransaction) this.publishLogDelta(true);
  }

  /**
   * Loads a snapshot: it states the whole image at its offset, so whatever the current image
   * holds and the snapshot does not is removed. An open transaction is dropped with the log it
   * was in.
   */
  handleLoadSnapshot(snapshot: LoadedSnapshot): void {
    const { endOffset, epoch } = snapshot.snapshotId;
    const delta = new MetadataDelta(this.current);
    for (const bytes of snapshot.records) {
      try {
        delta.replay(decodeAt(bytes, endOffset - 1));
      } catch (cause) {
        if (!(cause instanceof MetadataReplayError)) throw cause;
        throw new MetadataReplayError(`snapshot ${endOffset}-${epoch} cannot be loaded`, {
          offset: endOffset - 1,
          cause,
        });
      }
    }
    delta.finishSnapshot();
    const provenance = { lastContainedOffset: endOffset - 1, lastContainedEpoch: epoch };
    this.isInTransaction = false;
    this.isOffsetBatchAligned = true;
    this.policy.resetBytes();
    this.publish(delta, delta.apply(provenance), { kind: "snapshot", provenance });
  }

  /** Whether a snapshot of the current image is due at `nowMs` (never inside a transaction). */
  snapshotDecision(nowMs: number): SnapshotDecision {
    if (this.isInTransaction || !this.isOffsetBatchAligned) return { kind: "notDue" };
    const reason = this.policy.reasonDue(nowMs);
    if (reason === undefined) return { kind: "notDue" };
    return { kind: "due", reason, image: this.current };
  }

  /** The driver wrote a snapshot of the current image at `nowMs`. */
  snapshotWritten(nowMs: number): void {
    this.policy.reset(nowMs);
  }

  private lastReplayedOffset(): number {
    return this.lastReplayed ?? this.current.provenance.lastContainedOffset;
  }

  private replayCommitted(record: MetadataRecord, batch: CommittedBatch, index: number): void {
    const offset = batch.baseOffset + index;
    switch (record.type) {
      case T.BeginTransactionRecord:
        if (this.isInTransaction)
          throw new MetadataReplayError("transaction begun inside a transaction", { offset });
        // What came before the transaction is published on its own, so the transaction's
        // records are the only ones in their delta.
        if (offset - 1 > this.current.provenance.lastContainedOffset) {
          this.pendingProvenance = {
            lastContainedOffset: offset - 1,
            lastContainedEpoch: batch.epoch,
          };
          this.publishLogDelta(index === 0);
        }
        this.isInTransaction = true;
        break;
      case T.EndTransactionRecord:
        if (!this.isInTransaction)
          throw new MetadataReplayError("transaction ended outside a transaction", { offset });
        this.isInTransaction = false;
        break;
      case T.AbortTransactionRecord:
        if (!this.isInTransaction)
          throw new MetadataReplayError("transaction aborted outside a transaction", { offset });
        this.isInTransaction = false;
        this.delta = new MetadataDelta(this.current);
        break;
      default:
        this.delta.replay(record, offset);
    }
    this.lastReplayed = offset;
  }

  private publishLogDelta(isOffsetBatchAligned: boolean): void {
    const provenance = this.pendingProvenance;
    assert(provenance !== undefined, "a log delta has a provenance");
    const manifest: LoaderManifest = {
      kind: "logDelta",
      provenance,
      numBatches: this.batchesInDelta,
      numBytes: this.bytesInDelta,
    };
    this.policy.recordApplied(this.bytesInDelta);
    this.isOffsetBatchAligned = isOffsetBatchAligned;
    this.publish(this.delta, this.delta.apply(provenance), manifest);
  }

  private publish(delta: MetadataDelta, image: MetadataImage, manifest: LoaderManifest): void {
    this.current = image;
    this.delta = new MetadataDelta(image);
    this.batchesInDelta = 0;
    this.bytesInDelta = 0;
    this.pendingProvenance = undefined;
    this.lastReplayed = undefined;
    for (const publisher of this.publishers) publisher.onMetadataUpdate(delta, image, manifest);
  }
}
