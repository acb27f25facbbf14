/**
 * The producer state of a partition log with the files that keep it (Kafka's
 * ProducerStateManager and TransactionIndex files): the producers, the `.txnindex` files of
 * aborted transactions, and the `.snapshot` files of the producer state.
 *
 * A snapshot is taken at the log end after an append that rolled a segment and at close, so
 * that opening a log reads the newest snapshot and the batches after it, not the whole log.
 * After a crash only a snapshot at or below the recovery point is used: the batches above it
 * are read again, which also writes back the `.txnindex` entries a crash lost. Snapshots above
 * the log end (their batches lost, or truncated) and below the log start are deleted.
 */
import type { Clock, FileSystem, Logger } from "../../ports/index.js";
import { ProducerStateManager, type PartitionTransactions } from "../producer-state/index.js";
import type { LogConfig } from "./log-config.js";
import type { LogSegment } from "./log-segment.driver.js";
import type { AppendedCompletion } from "./producer-append.js";
import { loadProducerState } from "./producer-state-load.driver.js";
import { ProducerSnapshots, type LoadedSnapshot } from "./producer-snapshots.driver.js";
import { abortedOf, TransactionIndex } from "./transaction-index.driver.js";

type Config = Pick<LogConfig, "producerIdExpirationMs">;

export class ProducerStateFiles {
  readonly producers = new ProducerStateManager();
  /** The aborted transactions, in `.txnindex` files beside the segments. */
  readonly transactionIndex: TransactionIndex;
  private readonly snapshots: ProducerSnapshots;

  /** What the last stable offset needs of the producers. */
  get transactions(): PartitionTransactions {
    return this.producers;
  }

  constructor(
    private readonly context: {
      readonly fs: FileSystem;
      readonly dir: string;
      readonly clock: Clock;
      readonly logger: Logger;
    },
  ) {
    this.transactionIndex = new TransactionIndex(context.fs, context.dir);
    this.snapshots = new ProducerSnapshots(context.fs, context.dir);
  }

  /**
   * Loads the state of a log just opened, whose batches below `recoveryPoint` are durable;
   * resolves to whether a file was deleted (the folder needs a sync before the log's recovery
   * point passes the deleted snapshot's offset).
   */
  async load(
    segments: readonly LogSegment[],
    bounds: { readonly logStartOffset: number; readonly logEndOffset: number },
    options: { readonly recoveryPoint: number; readonly config: Config },
  ): Promise<boolean> {
    const { logStartOffset, logEndOffset } = bounds;
    const isStale = (offset: number) => offset > logEndOffset || offset < logStartOffset;
    const deleted = await this.snapshots.removeWhere(isStale);
    const snapshot = await this.latestSnapshot(logStartOffset, options.recoveryPoint);
    const { clock } = this.context;
    const rebuilt = await loadProducerState(
      this.producers,
      segments,
      clock,
      options.config,
      snapshot,
    );
    await this.transactionIndex.load(bounds, rebuilt);
    return deleted;
  }

  /** After a truncation to `offset`: the state of the batches below it. */
  async truncateTo(
    offset: number,
    log: { readonly segments: readonly LogSegment[]; readonly logStartOffset: number },
    config: Config,
  ): Promise<void> {
    await this.transactionIndex.truncateTo(offset);
    await this.snapshots.removeWhere((snapshotOffset) => snapshotOffset > offset);
    const snapshot = await this.latestSnapshot(log.logStartOffset, offset);
    const { clock } = this.context;
    await loadProducerState(this.producers, log.segments, clock, config, snapshot);
  }

  /**
   * After an append: the aborted transactions its markers completed go to the index of the
   * active segment, and a snapshot is taken at the log end when a segment rolled. Resolves to
   * whether a file was created (the folder needs a sync).
   */
  async afterAppend(
    accepted: readonly { readonly completed: readonly AppendedCompletion[] }[],
    log: { readonly active: LogSegment; readonly rolled: boolean },
  ): Promise<boolean> {
    const aborted = abortedOf(accepted, this.producers.firstUndecidedOffset());
    await this.transactionIndex.append(aborted, log.active.baseOffset);
    // The active segment's next offset is the log end.
    return log.rolled && (await this.takeSnapshot(log.active.nextOffset));
  }

  /** Syncs the files written since the last flush; true when the folder needs a sync too. */
  async flush(): Promise<boolean> {
    await this.snapshots.flush();
    return this.transactionIndex.flush();
  }

  /** Retention removed `segments`; the log now starts at `logStartOffset`. */
  async removeSegments(segments: readonly LogSegment[], logStartOffset: number): Promise<void> {
    await this.transactionIndex.removeSegments(segments.map((segment) => segment.baseOffset));
    await this.snapshots.removeWhere((offset) => offset < logStartOffset);
  }

  /** The log restarts empty: no producer, no file. */
  async clear(): Promise<void> {
    this.producers.clear();
    await this.transactionIndex.clear();
    await this.snapshots.removeWhere(() => true);
  }

  /** A clean close at `logEndOffset`: a snapshot there, synced (the caller syncs the folder). */
  async close(logEndOffset: number): Promise<void> {
    await this.takeSnapshot(logEndOffset);
    await this.snapshots.flush();
  }

  private takeSnapshot(offset: number): Promise<boolean> {
    const producers = [...this.producers.entries()].map(([producerId, entry]) => ({
      producerId,
      entry,
    }));
    return this.snapshots.write(offset, producers);
  }

  private latestSnapshot(atLeast: number, atMost: number): Promise<LoadedSnapshot | undefined> {
    return this.snapshots.latest({ atLeast, atMost }, (offset, reason) =>
      this.context.logger.warn("dropped a producer state snapshot that does not read back", {
        dir: this.context.dir,
        offset,
        reason,
      }),
    );
  }
}
