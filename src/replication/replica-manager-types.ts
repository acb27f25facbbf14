/**
 * The produce side of the replica manager's surface (replica-manager.driver.ts): the records it
 * is given per partition and what an append answers, with the waits of acks=all.
 */
import type { TopicPartition } from "../storage/index.js";
import type { Partition } from "./partition.driver.js";
import type { AppendOutcome } from "./partition-results.js";

/** One partition's records of a Produce request. */
export interface ProduceEntry {
  readonly topicPartition: TopicPartition;
  readonly records: Uint8Array;
}

/** What an acks=all produce must wait for, per appended partition (the purgatory's key). */
export interface AcksAllWait {
  readonly topicPartition: TopicPartition;
  readonly partition: Partition;
  /** Done when the high watermark reaches this (lastOffset + 1), or the ISR shrinks below. */
  readonly requiredOffset: number;
}

/** The answer of appendRecords. */
export interface AppendRecordsResult {
  readonly results: readonly {
    readonly topicPartition: TopicPartition;
    readonly outcome: AppendOutcome;
  }[];
  /**
   * For acks=-1: the partitions to wait on (see Partition.checkEnoughReplicasReachOffset), empty
   * when every partition failed (Kafka's delayedProduceRequestRequired), which answers at once.
   */
  readonly waits: readonly AcksAllWait[];
}
