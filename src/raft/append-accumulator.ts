/**
 * The leader's batching of proposals (Kafka's BatchAccumulator): proposals get their offsets
 * at once, and wait `controller.quorum.append.linger.ms` or until the batch is full before they
 * become one record batch to append. Control batches are appended alone, after the pending
 * data batch, so offsets stay in order.
 */
import { assert } from "../common/index.js";
import { encodeBatch, NO_PRODUCER_ID, NO_SEQUENCE, type NewRecord } from "../protocol/index.js";

/** A conservative per-record size beyond its value: lengths, deltas and attributes. */
const RECORD_OVERHEAD_BYTES = 24;
/** The size of a batch header (Kafka's RECORD_BATCH_OVERHEAD). */
const BATCH_OVERHEAD_BYTES = 61;

interface PendingBatch {
  readonly baseOffset: number;
  readonly records: NewRecord[];
  bytes: number;
  readonly lingerDeadlineMs: number;
}

/** A batch built for the log, with where the log ends after it. */
export interface BuiltBatch {
  readonly bytes: Uint8Array;
  readonly endOffset: number;
}

/** The proposals of one leader epoch. */
export class AppendAccumulator {
  private pending: PendingBatch | null = null;
  private next: number;
  private unconfirmedBytes: { endOffset: number; bytes: number }[] = [];

  constructor(
    private readonly options: {
      readonly epoch: number;
      readonly nextOffset: number;
      readonly lingerMs: number;
      readonly batchBytesMax: number;
    },
  ) {
    this.next = options.nextOffset;
  }

  /** The offset the next proposal or control record will get. */
  get nextOffset(): number {
    return this.next;
  }

  /** Bytes proposed and not yet durable: those pending here and those appended unconfirmed. */
  get outstandingBytes(): number {
    const unconfirmed = this.unconfirmedBytes.reduce((sum, entry) => sum + entry.bytes, 0);
    return unconfirmed + (this.pending?.bytes ?? 0);
  }

  /** When the pending batch must be appended, if there is one. */
  lingerDeadlineMs(): number | undefined {
    return this.pending?.lingerDeadlineMs;
  }

  /** True when the records fit in one batch at all. */
  fitsInBatch(values: readonly Uint8Array[]): boolean {
    return BATCH_OVERHEAD_BYTES + sizeOf(values) <= this.options.batchBytesMax;
  }

  /**
   * Adds proposals and returns their offsets, with any batch that became full and must be
   * appended now (the pending batch is closed when these records would not fit).
   */
  add(
    nowMs: number,
    values: readonly Uint8Array[],
  ): {
    readonly baseOffset: number;
    readonly lastOffset: number;
    readonly full: BuiltBatch[];
  } {
    assert(values.length > 0, "a proposal holds records");
    assert(this.fitsInBatch(values), "a proposal fits in one batch");
    const full: BuiltBatch[] = [];
    const bytes = sizeOf(values);
    if (this.pending !== null && this.pending.bytes + bytes > this.options.batchBytesMax) {
      full.push(this.closePending());
    }
    if (this.pending === null) {
      const lingerDeadlineMs = nowMs + this.options.lingerMs;
      this.pending = {
        baseOffset: this.next,
        records: [],
        bytes: BATCH_OVERHEAD_BYTES,
        lingerDeadlineMs,
      };
    }
    const baseOffset = this.next;
    for (const value of values) {
      this.pending.records.push({ offset: this.next, timestamp: nowMs, key: null, value });
      this.next++;
    }
    this.pending.bytes += bytes;
    return { baseOffset, lastOffset: this.next - 1, full };
  }

  /** The pending batch when its linger time has passed (or `force`), else nothing. */
  drain(nowMs: number, force: boolean): BuiltBatch[] {
    if (this.pending === null) return [];
    if (!force && nowMs < this.pending.lingerDeadlineMs) return [];
    return [this.closePending()];
  }

  /**
   * Closes the pending batch and appends a control batch after it; `build` encodes the control
   * batch at the base offset it is given and says how many offsets it used.
   */
  appendControl(
    build: (baseOffset: number) => { bytes: Uint8Array; recordCount: number },
  ): BuiltBatch[] {
    const batches = this.drain(0, true);
    const control = build(this.next);
    assert(control.recordCount > 0, "a control batch holds records");
    this.next += control.recordCount;
    this.unconfirmedBytes.push({ endOffset: this.next, bytes: control.bytes.length });
    batches.push({ bytes: control.bytes, endOffset: this.next });
    return batches;
  }

  /** Forgets the bytes that became durable up to `endOffset`. */
  confirm(endOffset: number): void {
    this.unconfirmedBytes = this.unconfirmedBytes.filter((entry) => entry.endOffset > endOffset);
  }

  private closePending(): BuiltBatch {
    const pending = this.pending;
    assert(pending !== null, "a pending batch exists");
    this.pending = null;
    const bytes = encodeBatch({
      baseOffset: pending.baseOffset,
      partitionLeaderEpoch: this.options.epoch,
      compression: "none",
      timestampType: "createTime",
      isTransactional: false,
      isControl: false,
      producerId: NO_PRODUCER_ID,
      producerEpoch: -1,
      baseSequence: NO_SEQUENCE,
      records: pending.records,
    });
    const endOffset = pending.baseOffset + pending.records.length;
    this.unconfirmedBytes.push({ endOffset, bytes: bytes.length });
    return { bytes, endOffset };
  }
}

function sizeOf(values: readonly Uint8Array[]): number {
  return values.reduce((sum, value) => sum + value.length + RECORD_OVERHEAD_BYTES, 0);
}
