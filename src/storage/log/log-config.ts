/**
 * The configuration of one partition log, under Kafka's topic config names (camel-cased), with
 * Kafka's defaults. Kafka's Long.MAX_VALUE ("never") is Number.MAX_SAFE_INTEGER here, since
 * Sluice keeps 64-bit integers as JavaScript numbers (DESIGN: 64-bit integers).
 */
import { assert } from "../../common/index.js";

/** Kafka's Long.MAX_VALUE for `flush.messages` and `flush.ms`: never flush on this account. */
export const NEVER = Number.MAX_SAFE_INTEGER;

/** `cleanup.policy`: delete (retention), compact (the cleaner), or both. */
export interface CleanupPolicy {
  readonly delete: boolean;
  readonly compact: boolean;
}

/** `message.timestamp.type`: who sets the timestamps of appended batches. */
export type MessageTimestampType = "CreateTime" | "LogAppendTime";

/** The topic configs the partition log obeys. Numbers are bytes, milliseconds or counts. */
export interface LogConfig {
  /** `segment.bytes`: a segment rolls before it would pass this size. */
  readonly segmentBytes: number;
  /** `segment.ms`: a non-empty segment rolls when its first batch is this much older. */
  readonly segmentMs: number;
  /** `segment.jitter.ms`: at most this much is taken off segment.ms, per segment. */
  readonly segmentJitterMs: number;
  /** `segment.index.bytes`: the size at which a segment's index is full. */
  readonly segmentIndexBytes: number;
  /** `index.interval.bytes`: log bytes between two offset index entries. */
  readonly indexIntervalBytes: number;
  /** `flush.messages`: fsync when this many messages are not yet flushed. */
  readonly flushMessages: number;
  /** `flush.ms`: fsync when the last flush is this old (the log manager asks). */
  readonly flushMs: number;
  /** `retention.ms`: delete segments whose newest timestamp is older; negative keeps all. */
  readonly retentionMs: number;
  /** `retention.bytes`: delete old segments while the log is larger; negative keeps all. */
  readonly retentionBytes: number;
  readonly cleanupPolicy: CleanupPolicy;
  /** `delete.retention.ms`: how long the cleaner keeps tombstones. */
  readonly deleteRetentionMs: number;
  /** `min.cleanable.dirty.ratio`: the cleaner's threshold. */
  readonly minCleanableDirtyRatio: number;
  /** `min.compaction.lag.ms`: records younger than this are not compacted. */
  readonly minCompactionLagMs: number;
  /** `file.delete.delay.ms`: how long a deleted segment's files stay (renamed `.deleted`). */
  readonly fileDeleteDelayMs: number;
  /** `max.message.bytes`: the largest batch the log accepts. */
  readonly maxMessageBytes: number;
  /** `message.timestamp.type`: CreateTime keeps the producer's; LogAppendTime stamps the log's. */
  readonly messageTimestampType: MessageTimestampType;
  /**
   * The broker's `producer.id.expiration.ms` (KIP-854), not a topic config: how long after its
   * last batch's timestamp an idle idempotent producer's state is kept.
   */
  readonly producerIdExpirationMs: number;
}

/** Kafka's defaults for every key. */
export const defaultLogConfig: LogConfig = {
  segmentBytes: 1_073_741_824,
  segmentMs: 604_800_000,
  segmentJitterMs: 0,
  segmentIndexBytes: 10_485_760,
  indexIntervalBytes: 4096,
  flushMessages: NEVER,
  flushMs: NEVER,
  retentionMs: 604_800_000,
  retentionBytes: -1,
  cleanupPolicy: { delete: true, compact: false },
  deleteRetentionMs: 86_400_000,
  minCleanableDirtyRatio: 0.5,
  minCompactionLagMs: 0,
  fileDeleteDelayMs: 60_000,
  maxMessageBytes: 1_048_588,
  messageTimestampType: "CreateTime",
  producerIdExpirationMs: 86_400_000,
};

/** A partition of a topic: the name of its folder is `<topic>-<partition>`. */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** The folder name Kafka gives a partition's log. */
export function partitionFolderName(topicPartition: TopicPartition): string {
  return `${topicPartition.topic}-${topicPartition.partition}`;
}

/**
 * Checks the ranges Kafka's ConfigDef enforces for the keys the log reads. Configs come from the
 * metadata image, which validated them, so a value out of range is a bug here.
 */
export function checkLogConfig(config: LogConfig): void {
  assert(Number.isSafeInteger(config.segmentBytes), "segment.bytes is an integer");
  assert(config.segmentBytes >= 14, "segment.bytes is at least 14");
  assert(config.segmentMs >= 1, "segment.ms is at least 1");
  assert(config.segmentJitterMs >= 0, "segment.jitter.ms is not negative");
  assert(config.segmentIndexBytes >= 4, "segment.index.bytes is at least 4");
  assert(config.indexIntervalBytes >= 0, "index.interval.bytes is not negative");
  assert(config.flushMessages >= 1, "flush.messages is at least 1");
  assert(config.flushMs >= 0, "flush.ms is not negative");
  assert(config.fileDeleteDelayMs >= 0, "file.delete.delay.ms is not negative");
  assert(config.maxMessageBytes >= 0, "max.message.bytes is not negative");
  assert(config.producerIdExpirationMs >= 1, "producer.id.expiration.ms is at least 1");
}
