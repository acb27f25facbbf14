/**
 * Kafka's DelayedProduce for acks=-1: a Produce waits until every appended partition's high
 * watermark reaches the end of its append (or the partition answers an error), or until the
 * request's timeout, when the partitions still waiting get REQUEST_TIMED_OUT. With a single
 * replica the high watermark moves with the append, so it completes when handed over.
 */
import { ErrorCode } from "../../common/index.js";
import type { AcksAllWait } from "../../replication/index.js";
import { topicPartitionKey, type DelayedOperation } from "../purgatory/delayed-operation.js";

/** The error code of each waited-for partition, by topicPartitionKey. */
export type ProduceWaitResult = ReadonlyMap<string, number>;

/** One acks=-1 Produce request waiting for its replicas. */
export class DelayedProduce implements DelayedOperation {
  /** Resolves once, with every partition's outcome, when the operation completes or expires. */
  readonly done: Promise<ProduceWaitResult>;
  private readonly waiting = new Map<string, AcksAllWait>();
  private readonly outcomes = new Map<string, number>();
  private resolve: ((result: ProduceWaitResult) => void) | undefined;

  constructor(
    readonly delayMs: number,
    waits: readonly AcksAllWait[],
  ) {
    for (const wait of waits) {
      const { topic, partition } = wait.topicPartition;
      this.waiting.set(topicPartitionKey(topic, partition), wait);
    }
    this.done = new Promise((resolve) => (this.resolve = resolve));
  }

  /** The watch keys: one per waited-for partition. */
  get keys(): string[] {
    return [...this.waiting.keys()];
  }

  /** Done when no partition is still waiting for its high watermark. */
  tryComplete(): boolean {
    for (const [key, wait] of this.waiting) {
      const progress = wait.partition.checkEnoughReplicasReachOffset(wait.requiredOffset);
      if (progress.kind === "waiting") continue;
      this.outcomes.set(key, progress.errorCode);
      this.waiting.delete(key);
    }
    return this.waiting.size === 0;
  }

  /** Answers; partitions still waiting at the deadline time out. */
  onComplete(): void {
    for (const key of this.waiting.keys()) this.outcomes.set(key, ErrorCode.REQUEST_TIMED_OUT);
    this.waiting.clear();
    this.resolve?.(this.outcomes);
    this.resolve = undefined;
  }

  /** Nothing beyond the answer: the timed-out partitions already say so. */
  onExpiration(): void {}
}
