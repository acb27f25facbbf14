/**
 * The way out to the controller for ISR changes. The node assembly connects it to the active
 * controller (batching items into AlterPartition requests, with its own retry backoff); tests
 * answer it directly.
 */
import { AssertionError, ErrorCode } from "../common/index.js";
import type { AlterPartitionItem, AlterPartitionOutcome } from "./isr-state.js";

/** Sends one partition's AlterPartition proposal and resolves to the controller's answer. */
export interface AlterPartitionSender {
  /**
   * Resolves to the outcome for `item`; a request that was lost or timed out resolves to an
   * error outcome (REQUEST_TIMED_OUT or UNKNOWN_SERVER_ERROR), so the leader may retry.
   */
  submit(item: AlterPartitionItem): Promise<AlterPartitionOutcome>;
}

/** How many times a leader sends one proposal before it waits for new metadata instead. */
export const ALTER_PARTITION_ATTEMPTS_MAX = 10;

/**
 * Sends `item` until `apply` (which takes each answer into the partition's state) says not to
 * retry, at most ALTER_PARTITION_ATTEMPTS_MAX times. A sender that fails instead of answering
 * counts as a lost request (UNKNOWN_SERVER_ERROR); a broken invariant goes on.
 */
export async function submitWithRetries(
  sender: AlterPartitionSender,
  item: AlterPartitionItem,
  apply: (outcome: AlterPartitionOutcome) => boolean,
): Promise<void> {
  for (let attempt = 1; attempt <= ALTER_PARTITION_ATTEMPTS_MAX; attempt++) {
    const outcome = await sender.submit(item).catch((error: unknown): AlterPartitionOutcome => {
      if (error instanceof AssertionError) throw error;
      return { kind: "error", errorCode: ErrorCode.UNKNOWN_SERVER_ERROR };
    });
    if (!apply(outcome)) return;
  }
}
