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

/** A producer's last record as the cleaner must keep it (Kafka's LastRecord). */
export interface LastRecordOfProducer {
  /** The last offset of its last data batch, when its state retains one. */
  readonly lastDataOffset: number | undefined;
  readonly producerEpoch: number;
}

/** Each producer's last record (Kafka's lastRecordsOfActiveProducers), by producer id. */
export function lastRecordsOf(producers: ProducerStateManager): Map<number, LastRecordOfProducer> {
  const last = new Map<number, LastRecordOfProducer>();
  for (const [producerId, entry] of producers.entries()) {
    const lastDataOffset = entry.batches.at(-1)?.lastOffset;
    last.set(producerId, { lastDataOffset, producerEpoch: entry.producerEpoch });
  }
  return last;
}
