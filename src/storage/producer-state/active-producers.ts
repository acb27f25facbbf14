/** What DescribeProducers shows of a partition's producer state (Kafka's activeProducers). */
import type { ProducerStateManager } from "./producer-state.js";

/** One producer as DescribeProducers lists it (Kafka's UnifiedLog.activeProducers). */
export interface ActiveProducer {
  readonly producerId: number;
  readonly producerEpoch: number;
  /** The last sequence of its last retained batch, or -1. */
  readonly lastSequence: number;
  readonly lastTimestamp: number;
  /** The coordinator epoch of its last end marker, or -1. */
  readonly coordinatorEpoch: number;
  /** The first offset of its ongoing transaction, or -1. */
  readonly currentTxnStartOffset: number;
}

/** Every producer `producers` holds state for, by producer id. */
export function activeProducersOf(producers: ProducerStateManager): ActiveProducer[] {
  return [...producers.entries()]
    .sort(([a], [b]) => a - b)
    .map(([producerId, entry]) => ({
      producerId,
      producerEpoch: entry.producerEpoch,
      lastSequence: entry.batches.at(-1)?.lastSequence ?? -1,
      lastTimestamp: entry.lastTimestamp,
      coordinatorEpoch: entry.coordinatorEpoch ?? -1,
      currentTxnStartOffset: entry.currentTxnFirstOffset ?? -1,
    }));
}
