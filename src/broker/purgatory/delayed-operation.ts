/**
 * A request that cannot be answered yet: a produce waiting for replicas to reach its offsets, a
 * fetch waiting for enough bytes. The purgatory holds it until `tryComplete` says it can finish,
 * or until its deadline. The operation keeps the state it needs to build its answer; the
 * purgatory decides when, and guarantees that `onComplete` runs exactly once.
 */
export interface DelayedOperation {
  /** How long the operation may wait, from the moment it is handed to the purgatory. */
  readonly delayMs: number;
  /**
   * True when the operation can complete now. Called when it is first handed over and each time
   * one of its watch keys is woken, never after it completed. It must not complete anything
   * itself: the purgatory calls `onComplete` right after it returns true. `nowMs` is the
   * purgatory's monotonic clock.
   */
  tryComplete(nowMs: number): boolean;
  /**
   * Runs exactly once, whether the operation completed (tryComplete returned true) or its
   * deadline passed; this is where the response is sent. On expiry it runs before
   * `onExpiration`, as in Kafka's DelayedOperation.
   */
  onComplete(): void;
  /** Runs once after `onComplete` when the operation completed because its deadline passed. */
  onExpiration(): void;
}

/** How an operation ended: completed by a wake-up (or at once), or expired at its deadline. */
export type CompletionReason = "completed" | "expired";

/**
 * The watch key of a topic partition, as delayed produces and fetches are keyed in Kafka
 * (`TopicPartitionOperationKey`): "<topic>-<partition>".
 */
export function topicPartitionKey(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}
