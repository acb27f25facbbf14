/**
 * The recent committed changes of the metadata log, for the dashboard's stream: each committed
 * batch (or loaded snapshot) as its offsets, epoch and records, kept as the raft layer delivered
 * them and summarized only when someone reads them (a summary decodes the records, which the
 * node need not do twice for every batch it replays while no page is open). The history keeps
 * the last `historyMax` changes; each summary names at most `recordsPerChangeMax` records and
 * counts the rest.
 */

/** One record of a change, as the page shows it. */
export interface MetadataRecordSummary {
  /** Kafka's name of the record type, e.g. "PartitionChangeRecord". */
  readonly type: string;
  /** What the record says, in a few words (no config values: they may be secrets). */
  readonly summary: string;
}

/** A committed change, summarized. */
export interface MetadataChange {
  readonly kind: "batch" | "snapshot";
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  readonly recordCount: number;
  /** The first records of the change, at most `recordsPerChangeMax`. */
  readonly records: readonly MetadataRecordSummary[];
}

/** A change as it was delivered: its record values, not yet decoded. */
export interface CommittedChange {
  readonly kind: "batch" | "snapshot";
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  readonly records: readonly Uint8Array[];
}

/** Summarizes record values; a value it cannot decode is summarized as such, not thrown. */
export type MetadataRecordSummarizer = (value: Uint8Array) => MetadataRecordSummary;

export interface MetadataChangeFeedOptions {
  readonly summarize: MetadataRecordSummarizer;
  /** Changes kept for a page that opens later. */
  readonly historyMax: number;
  /** Records summarized per change. */
  readonly recordsPerChangeMax: number;
}

type Listener = (change: MetadataChange) => void;

interface Entry {
  /** The change with only the records to summarize, so the history holds no more. */
  readonly committed: CommittedChange;
  readonly recordCount: number;
  summary: MetadataChange | undefined;
}

export class MetadataChangeFeed {
  private readonly history: Entry[] = [];
  private readonly listeners = new Set<Listener>();

  constructor(private readonly options: MetadataChangeFeedOptions) {}

  /** Keeps `committed` and hands its summary to every subscriber, in commit order. */
  publish(committed: CommittedChange): void {
    const shown = committed.records.slice(0, this.options.recordsPerChangeMax);
    const entry: Entry = {
      committed: { ...committed, records: shown },
      recordCount: committed.records.length,
      summary: undefined,
    };
    // A snapshot replaces everything before it, so the history starts again from it.
    if (committed.kind === "snapshot") this.history.length = 0;
    this.history.push(entry);
    if (this.history.length > this.options.historyMax) this.history.shift();
    if (this.listeners.size === 0) return;
    const summary = this.summaryOf(entry);
    for (const listener of [...this.listeners]) listener(summary);
  }

  /** The kept changes, oldest first. */
  recent(): MetadataChange[] {
    return this.history.map((entry) => this.summaryOf(entry));
  }

  /** Calls `listener` with each change published from now on; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private summaryOf(entry: Entry): MetadataChange {
    if (entry.summary !== undefined) return entry.summary;
    const { committed } = entry;
    entry.summary = {
      kind: committed.kind,
      baseOffset: committed.baseOffset,
      lastOffset: committed.lastOffset,
      epoch: committed.epoch,
      recordCount: entry.recordCount,
      records: committed.records.map((value) => this.options.summarize(value)),
    };
    return entry.summary;
  }
}
