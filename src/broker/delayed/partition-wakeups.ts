/**
 * Wakes the purgatories when a partition changes: a high watermark move may complete delayed
 * produces (acks=-1) and consumer fetches, an append may complete follower fetches. Each
 * Partition object is subscribed once, the first time an operation waits on it; a partition
 * that is dropped takes its listeners with it. A change of the local replica's role (another
 * leader, a new leader epoch, deletion, an offline dir) wakes both purgatories through `wake`,
 * so that waiting produces answer NOT_LEADER_OR_FOLLOWER and waiting fetches answer with what
 * they have at once, as Kafka completes delayed operations on a leader change.
 */
import type { Partition } from "../../replication/index.js";
import type { TopicPartition } from "../../storage/index.js";
import { topicPartitionKey } from "../purgatory/delayed-operation.js";

/** The purgatory calls a wake-up needs (DelayedOperationPurgatory has them). */
export interface Wakeable {
  checkAndComplete(key: string): number;
}

/** Subscribes partitions to the produce and fetch purgatories. */
export class PartitionWakeups {
  private readonly watched = new WeakSet<Partition>();

  constructor(
    private readonly purgatories: { readonly produce: Wakeable; readonly fetch: Wakeable },
  ) {}

  /** Subscribes `partition` unless it already is. */
  watch(partition: Partition): void {
    if (this.watched.has(partition)) return;
    this.watched.add(partition);
    const { topic, partition: index } = partition.topicPartition;
    const key = topicPartitionKey(topic, index);
    const { produce, fetch } = this.purgatories;
    partition.onHighWatermarkChanged(() => {
      produce.checkAndComplete(key);
      fetch.checkAndComplete(key);
    });
    partition.onAppended(() => fetch.checkAndComplete(key));
  }

  /** Gives every operation waiting on `topicPartition` a chance to complete now. */
  wake(topicPartition: TopicPartition): void {
    const key = topicPartitionKey(topicPartition.topic, topicPartition.partition);
    this.purgatories.produce.checkAndComplete(key);
    this.purgatories.fetch.checkAndComplete(key);
  }
}
