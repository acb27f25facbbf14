/** What the coordinator asks of the partition leaders: the end markers of one transaction. */
import type { TopicPartitionRef } from "./transaction-metadata.js";

export interface MarkerRequest {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly committed: boolean;
  readonly partitions: readonly TopicPartitionRef[];
}

/**
 * What became of one round of markers: the partitions whose marker must be sent again (no
 * leader, a leader change, a timeout; none when every marker is written or its topic is gone),
 * or `abandoned` when a leader refused it for good because a newer producer epoch or
 * coordinator epoch took over (Kafka then stops sending and leaves the transaction to it).
 */
export type MarkerRound =
  | { readonly kind: "retry"; readonly partitions: readonly TopicPartitionRef[] }
  | { readonly kind: "abandoned" };

/**
 * Writes a transaction's markers on each partition's leader (Kafka's
 * TransactionMarkerChannelManager). Never rejects.
 */
export interface TransactionMarkerSender {
  send(request: MarkerRequest): Promise<MarkerRound>;
}
