/**
 * Kafka's DelayedFetch: a Fetch that found fewer than `minBytes` waits until enough bytes are
 * readable, a partition's situation changes (an error, a new leader epoch, a truncation, a
 * rolled segment), or `maxWaitMs` passes. The purgatory only decides when; the fetch handler
 * then reads again and answers with whatever is there.
 *
 * Bytes are measured as Kafka measures them, by positions in the active segment: from where the
 * fetch offset lay when the fetch was parked to the position of the readable end. When the
 * readable end is the high watermark and it lags the log end (replicas catching up), its position
 * is not known, and any progress of the high watermark completes the fetch: answering early is
 * safe (the consumer fetches again), waiting on bytes we cannot count is not.
 */
import { ErrorCode } from "../../common/index.js";
import type { LogOffsetMetadata, TopicPartition } from "../../storage/index.js";
import type { Partition, PartitionLookup } from "../../replication/index.js";
import {
  topicPartitionKey,
  type CompletionReason,
  type DelayedOperation,
} from "../purgatory/delayed-operation.js";

/** One partition of a parked fetch. */
export interface DelayedFetchPartition {
  readonly topicPartition: TopicPartition;
  readonly fetchOffset: number;
  readonly currentLeaderEpoch: number;
  /** Where `fetchOffset` lay in the log when the fetch was parked, when it was the log end. */
  readonly fetchPosition: LogOffsetMetadata | undefined;
}

/** What a delayed fetch is built from. */
export interface DelayedFetchOptions {
  readonly delayMs: number;
  readonly minBytes: number;
  /** A follower reads to the log end; a consumer to the high watermark. */
  readonly isFollower: boolean;
  readonly partitions: readonly DelayedFetchPartition[];
  /** The replica manager's getPartitionOrError, consulted on every try. */
  readonly lookup: (topicPartition: TopicPartition) => PartitionLookup;
  /** Whether the leader holds back this follower's bytes of `partition` (KIP-73). */
  readonly isThrottled?: (partition: Partition) => boolean;
}

/** The parked position of `fetchOffset` in `partition`'s log, when it is the log end. */
export function fetchPositionOf(
  partition: Partition,
  fetchOffset: number,
): LogOffsetMetadata | undefined {
  const end = partition.logEndOffsetMetadata;
  return end.offset === fetchOffset ? end : undefined;
}

/** One Fetch waiting for bytes. */
export class DelayedFetch implements DelayedOperation {
  readonly delayMs: number;
  /** Resolves once, saying whether the fetch completed or its wait ran out. */
  readonly done: Promise<CompletionReason>;
  private reason: CompletionReason = "expired";
  private resolve: ((reason: CompletionReason) => void) | undefined;

  constructor(private readonly options: DelayedFetchOptions) {
    this.delayMs = options.delayMs;
    this.done = new Promise((resolve) => (this.resolve = resolve));
  }

  /** The watch keys: one per partition. */
  get keys(): string[] {
    return this.options.partitions.map(({ topicPartition }) =>
      topicPartitionKey(topicPartition.topic, topicPartition.partition),
    );
  }

  /** Done when enough bytes are readable or some partition must be answered now. */
  tryComplete(): boolean {
    let accumulatedBytes = 0;
    for (const parked of this.options.partitions) {
      const readable = this.readableBytes(parked);
      if (readable === "now") return this.completed();
      accumulatedBytes += readable;
    }
    return accumulatedBytes >= this.options.minBytes ? this.completed() : false;
  }

  /** Wakes the waiting handler. */
  onComplete(): void {
    this.resolve?.(this.reason);
    this.resolve = undefined;
  }

  /** Nothing beyond the answer. */
  onExpiration(): void {}

  private completed(): boolean {
    this.reason = "completed";
    return true;
  }

  /** The bytes readable past the parked offset, or "now" when the partition must answer. */
  private readableBytes(parked: DelayedFetchPartition): number | "now" {
    const lookup = this.options.lookup(parked.topicPartition);
    if (lookup.kind === "error") return "now";
    const { partition } = lookup;
    // Followers fetch from the leader alone; so do consumers, without KIP-392's client rack.
    const checked = partition.checkLeaderEpoch(parked.currentLeaderEpoch, {
      requireLeader: true,
    });
    if (checked !== ErrorCode.NONE) return "now";
    const logEnd = partition.logEndOffsetMetadata;
    const endOffset = this.options.isFollower ? logEnd.offset : partition.highWatermark;
    if (endOffset < parked.fetchOffset) return "now";
    // New bytes of a throttled replica would not be sent, so they do not end the wait (Kafka).
    if (endOffset === parked.fetchOffset || this.options.isThrottled?.(partition) === true) {
      return 0;
    }
    const start = parked.fetchPosition;
    if (start === undefined || endOffset !== logEnd.offset) return "now";
    // A rolled segment means at least a segment's worth of new data (Kafka's case F).
    if (start.segmentBaseOffset !== logEnd.segmentBaseOffset) return "now";
    return Math.max(0, logEnd.position - start.position);
  }
}
