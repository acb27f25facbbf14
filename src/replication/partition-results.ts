/**
 * The values the partition driver hands out: the outcome of an append, a read, a ListOffsets
 * lookup, an OffsetForLeaderEpoch lookup and a DeleteRecords. Refusals carry Kafka's error code.
 */
import type { BrokerId } from "../common/index.js";
import type {
  AppendVerification,
  LeaderAppend,
  LeaderOrigin,
  PartitionTransactions,
  TopicPartition,
} from "../storage/index.js";
import type { RecordError } from "./record-rules.js";

/** A refusal with its Kafka error code. */
export interface Refusal {
  readonly kind: "error";
  readonly errorCode: number;
  readonly errorMessage?: string;
}

/** How appendRecordsToLeader appends: for a producer (the default) or for a coordinator. */
export interface AppendToLeaderOptions {
  readonly requiredAcks: number;
  readonly nowMs: number;
  /** "coordinator" for end markers and a coordinator's transactional records (KIP-98). */
  readonly origin?: LeaderOrigin;
  /** The KIP-890 check of a client's transactional batch, when the broker verifies them. */
  readonly verification?: AppendVerification;
}

/** One partition's records of a Produce request. */
export interface ProduceEntry {
  readonly topicPartition: TopicPartition;
  readonly records: Uint8Array;
  /** The KIP-890 check its transactional batch passed, when the broker verifies them. */
  readonly verification?: AppendVerification;
}

/** What the log's appendAsLeader takes for `options`, at `leaderEpoch`. */
export function leaderAppendOf(options: AppendToLeaderOptions, leaderEpoch: number): LeaderAppend {
  const { origin = "client", verification } = options;
  return { leaderEpoch, origin, ...(verification === undefined ? {} : { verification }) };
}

/** The outcome of appendRecordsToLeader (one partition of a Produce request). */
export type AppendOutcome =
  | {
      readonly kind: "appended";
      readonly firstOffset: number;
      readonly lastOffset: number;
      /** The append time for a LogAppendTime topic, else -1. */
      readonly logAppendTime: number;
      readonly logStartOffset: number;
    }
  | (Refusal & {
      readonly logStartOffset: number;
      /** Per-record errors (Produce v8+), empty for other refusals. */
      readonly recordErrors: readonly RecordError[];
    });

/** Which records a consumer may see. */
export type IsolationLevel = "read_uncommitted" | "read_committed";

/** The epoch and end offset a follower diverges at (Fetch v12+ DivergingEpoch). */
export interface DivergingEpoch {
  readonly epoch: number;
  readonly endOffset: number;
}

/** One partition of a Fetch request, as the partition reads it. */
export interface ReadRequest {
  readonly fetchOffset: number;
  readonly maxBytes: number;
  readonly isolation: IsolationLevel;
  /** The leader epoch the fetcher believes in, or -1. */
  readonly currentLeaderEpoch: number;
  /** -1 for a consumer; a broker id for a follower. */
  readonly replicaId: number;
  /** Refuse with NOT_LEADER_OR_FOLLOWER unless this broker leads (see isFetchOnlyFromLeader). */
  readonly fetchOnlyLeader: boolean;
  /** Return the first batch even beyond maxBytes (KIP-74), unless an earlier partition had data. */
  readonly minOneBatch: boolean;
  readonly nowMs: number;
  /** A follower's log start offset (-1 for consumers). */
  readonly logStartOffset: number;
  /** A follower's broker epoch (Fetch v15+ ReplicaState.replicaEpoch, KIP-903), -1 if not sent. */
  readonly brokerEpoch: number;
  /** The epoch of the fetcher's last fetched batch, or -1 (Fetch v12+). */
  readonly lastFetchedEpoch: number;
}

/** The outcome of readRecords (one partition of a Fetch request). */
export type ReadOutcome =
  | {
      readonly kind: "records";
      /**
       * The log's whole batches, in offset order, as the bytes of the file pieces they were read
       * from: written to the socket as they are, never joined.
       */
      readonly records: readonly Uint8Array[];
      readonly sizeInBytes: number;
      /** The offsets before the read, as Kafka reports them. */
      readonly highWatermark: number;
      readonly lastStableOffset: number;
      readonly logStartOffset: number;
      readonly logEndOffset: number;
      /** Set when a follower's last fetched epoch diverges from the leader's log; no records. */
      readonly divergingEpoch: DivergingEpoch | undefined;
      /** The replica a consumer should fetch from instead (KIP-392); no records then. */
      readonly preferredReadReplica?: BrokerId;
      /** For read_committed: the aborted transactions the records overlap, in marker order. */
      readonly abortedTransactions?: readonly {
        readonly producerId: number;
        readonly firstOffset: number;
      }[];
    }
  | (Refusal & { readonly highWatermark: number; readonly logStartOffset: number });

/** The outcome of appending fetched batches as a follower. */
export type FollowerAppendOutcome =
  | {
      readonly kind: "appended";
      /** The offset of the last record appended (-1 when the records held no batch). */
      readonly lastOffset: number;
      readonly logEndOffset: number;
      /** The epoch of the log's last batch afterwards (the next fetch's last fetched epoch). */
      readonly latestEpoch: number | undefined;
    }
  | Refusal;

/** How a ListOffsets lookup reads. */
export interface OffsetLookupOptions {
  /** The consumer's isolation; undefined for a replica or a debugging tool (the log end). */
  readonly isolation: IsolationLevel | undefined;
  readonly currentLeaderEpoch: number;
  /** False only for the debugging replica id (-2), which any replica answers, as in Kafka. */
  readonly fetchOnlyFromLeader: boolean;
}

/** The outcome of a ListOffsets lookup. */
export type OffsetLookup =
  | {
      readonly kind: "found";
      readonly offset: number;
      readonly timestamp: number;
      readonly leaderEpoch: number;
    }
  /** No record at or after the timestamp below the last fetchable offset: offset -1. */
  | { readonly kind: "notFound" }
  | Refusal;

/** The outcome of an OffsetForLeaderEpoch lookup (Kafka's EpochEndOffset). */
export interface EpochEndOffset {
  readonly errorCode: number;
  /** The largest epoch at most the one asked for, or -1. */
  readonly leaderEpoch: number;
  /** Where that epoch ends (exclusive), or -1. */
  readonly endOffset: number;
}

/** The outcome of DeleteRecords on the leader. */
export type DeleteRecordsOutcome =
  { readonly kind: "deleted"; readonly lowWatermark: number } | Refusal;

/** A follower's read that found its log diverging: no records, the epoch to truncate to. */
export function divergedRead(
  before: {
    readonly highWatermark: number;
    readonly lastStableOffset: number;
    readonly logStartOffset: number;
    readonly logEndOffset: number;
  },
  divergingEpoch: DivergingEpoch,
): ReadOutcome {
  return { kind: "records", records: [], sizeInBytes: 0, ...before, divergingEpoch };
}

/**
 * The last stable offset (Kafka's lastStableOffset): the first offset of the oldest transaction
 * not stable at the high watermark when it is below it, else the high watermark.
 */
export function lastStableOffsetOf(
  highWatermark: number,
  transactions: PartitionTransactions,
): number {
  const firstUnstableOffset = transactions.firstUnstableOffset(highWatermark);
  return firstUnstableOffset !== undefined && firstUnstableOffset < highWatermark
    ? firstUnstableOffset
    : highWatermark;
}

/** How far a consumer reads: the last stable offset for read_committed, else the HW. */
export function consumerBound(
  offsets: { readonly highWatermark: number; readonly lastStableOffset: number },
  isReadCommitted: boolean,
): number {
  return isReadCommitted ? offsets.lastStableOffset : offsets.highWatermark;
}
