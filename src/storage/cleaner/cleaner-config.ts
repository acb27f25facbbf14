/**
 * The broker-wide settings of the log cleaner, under Kafka's `log.cleaner.*` names (camel-cased)
 * with Kafka's defaults. Topic-level settings (min.cleanable.dirty.ratio, delete.retention.ms,
 * min.compaction.lag.ms, segment.bytes) come from each log's LogConfig.
 */
import { assert } from "../../common/index.js";

export interface CleanerConfig {
  /**
   * `log.cleaner.dedupe.buffer.size`: the memory the offset map may use. Kafka spends 24 bytes
   * per key (an MD5 hash and an offset); Sluice keeps the key bytes themselves, so this bounds
   * both the entry count (at 24 bytes each) and the total key bytes.
   */
  readonly dedupeBufferBytes: number;
  /** `log.cleaner.io.buffer.load.factor`: how full the offset map may get. */
  readonly dedupeBufferLoadFactor: number;
  /** `log.cleaner.io.buffer.size`: how much of a segment is read at a time. */
  readonly ioBufferBytes: number;
}

/** Kafka's defaults (one cleaner thread, which gets the whole dedupe buffer). */
export const defaultCleanerConfig: CleanerConfig = {
  dedupeBufferBytes: 134_217_728,
  dedupeBufferLoadFactor: 0.9,
  ioBufferBytes: 524_288,
};

/** Checks the ranges Kafka's broker config enforces. */
export function checkCleanerConfig(config: CleanerConfig): void {
  assert(config.dedupeBufferBytes >= 24, "the dedupe buffer holds at least one entry");
  assert(config.dedupeBufferLoadFactor > 0, "the load factor is positive");
  assert(config.dedupeBufferLoadFactor <= 1, "the load factor is at most one");
  assert(config.ioBufferBytes >= 1, "the io buffer is at least one byte");
}
