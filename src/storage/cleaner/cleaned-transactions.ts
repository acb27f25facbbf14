/**
 * What the cleaner knows of transactions while it walks a log in offset order, as Kafka's
 * CleanedTransactionMetadata: the aborted transactions of the range (from the `.txnindex`
 * entries) become current when the walk reaches their first offset. A transactional batch of a
 * current aborted transaction is discarded; any other transactional batch belongs to a
 * committed one. An ABORT marker stays while the walk met data of its transaction (that data is
 * discarded by this pass, the next pass may drop the marker), and its entry then goes to the
 * cleaned segment's index; a COMMIT marker stays while the walk met data of its transaction. A
 * marker that may go is still kept until its delete horizon passes (batch-filter.ts). Pure.
 */
import { decodeControlRecordKey, type DecodedRecord } from "../../protocol/index.js";
import type { AbortedTransaction } from "../log/transaction-index.driver.js";

/** The end-marker type of a control batch's records (its first record's key). */
export function controlTypeOf(records: readonly DecodedRecord[]): "abort" | "commit" | "other" {
  const key = decodeControlRecordKey(records[0]?.key ?? null);
  if (!key.ok) return "other";
  return key.typeId === 0 ? "abort" : key.typeId === 1 ? "commit" : "other";
}

/** What the walk needs of a batch header. */
export interface WalkedBatch {
  readonly producerId: number;
  readonly lastOffset: number;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
}

/** An aborted transaction being walked, and whether a batch of it was met. */
interface OngoingAbort {
  readonly aborted: AbortedTransaction;
  hasData: boolean;
}

export class CleanedTransactions {
  /** Aborted transactions not reached yet, by first offset. */
  private readonly pending: AbortedTransaction[];
  private nextPending = 0;
  private readonly ongoingAborted = new Map<number, OngoingAbort>();
  private readonly ongoingCommitted = new Set<number>();
  /** The aborted transactions whose marker stayed, since the last `takeKeptAborts`. */
  private keptAborts: AbortedTransaction[] = [];

  constructor(aborted: readonly AbortedTransaction[]) {
    this.pending = [...aborted].sort((a, b) => a.firstOffset - b.firstOffset);
  }

  /** Whether a batch may be discarded (either kind); `records` are a control batch's. */
  onRead(batch: WalkedBatch, records: readonly DecodedRecord[]): boolean {
    if (!batch.isControl) return this.onBatchRead(batch);
    return this.onControlBatchRead(batch, controlTypeOf(records));
  }

  /** Whether a data batch is discarded: it belongs to an aborted transaction. */
  onBatchRead(batch: WalkedBatch): boolean {
    this.reach(batch.lastOffset);
    if (!batch.isTransactional) return false;
    const aborted = this.ongoingAborted.get(batch.producerId);
    if (aborted !== undefined) {
      aborted.hasData = true;
      return true;
    }
    this.ongoingCommitted.add(batch.producerId);
    return false;
  }

  /**
   * Whether a control batch may be discarded: an end marker whose transaction has no data left
   * behind it in this walk. Other control types are kept.
   */
  onControlBatchRead(batch: WalkedBatch, type: "abort" | "commit" | "other"): boolean {
    this.reach(batch.lastOffset);
    switch (type) {
      case "abort": {
        const aborted = this.ongoingAborted.get(batch.producerId);
        this.ongoingAborted.delete(batch.producerId);
        if (aborted === undefined || !aborted.hasData) return true;
        this.keptAborts.push(aborted.aborted);
        return false;
      }
      case "commit":
        return !this.ongoingCommitted.delete(batch.producerId);
      case "other":
        return false;
    }
  }

  /** The aborted transactions whose marker stayed since the last call, in marker order. */
  takeKeptAborts(): AbortedTransaction[] {
    const kept = this.keptAborts;
    this.keptAborts = [];
    return kept;
  }

  private reach(offset: number): void {
    for (; this.nextPending < this.pending.length; this.nextPending++) {
      const aborted = this.pending[this.nextPending] as AbortedTransaction;
      if (aborted.firstOffset > offset) return;
      if (!this.ongoingAborted.has(aborted.producerId)) {
        this.ongoingAborted.set(aborted.producerId, { aborted, hasData: false });
      }
    }
  }
}
