/**
 * A batch's producer fields: whether it takes part in producer state, its last sequence and
 * whether one sequence follows another, both wrapping past 2^31 - 1 to 0 as Kafka's do.
 */
const INT32_MAX = 0x7fffffff;

/** Kafka's RecordBatch.NO_PRODUCER_ID: a batch whose producer id is not above it has none. */
export const NO_PRODUCER_ID = -1;

/** The producer fields of a batch header. */
export interface ProducerBatchHeader {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  /** The batch's last offset minus its base offset. */
  readonly lastOffsetDelta: number;
}

/** A batch's last sequence, wrapping past 2^31 - 1 to 0 as Kafka's sequences do. */
export function lastSequenceOf(batch: ProducerBatchHeader): number {
  const { baseSequence, lastOffsetDelta } = batch;
  if (baseSequence > INT32_MAX - lastOffsetDelta) {
    return lastOffsetDelta - (INT32_MAX - baseSequence) - 1;
  }
  return baseSequence + lastOffsetDelta;
}

/** Whether `nextSequence` is the one after `lastSequence`. */
export function isInSequence(lastSequence: number, nextSequence: number): boolean {
  return nextSequence === lastSequence + 1 || (nextSequence === 0 && lastSequence === INT32_MAX);
}

/** Whether a batch takes part in producer state: a data batch with a producer id. */
export function isProducerBatch(header: {
  readonly producerId: number;
  readonly isControl: boolean;
}): boolean {
  return header.producerId > NO_PRODUCER_ID && !header.isControl;
}
