// Idempotent producers' state per partition: sequence checks, duplicates, expiry, rebuilding.
export {
  BATCHES_RETAINED,
  PRODUCER_EXPIRATION_CHECK_INTERVAL_MS,
  NO_PRODUCER_ID,
  ProducerStateManager,
  isProducerBatch,
  lastSequenceOf,
} from "./producer-state.js";
export { activeProducersOf, lastRecordsOf } from "./active-producers.js";
export type { ActiveProducer, LastRecordOfProducer } from "./active-producers.js";
export type {
  BatchMetadata,
  CompletedTransaction,
  MarkerBatch,
  ProducerBatch,
  ProducerBatchHeader,
  ProducerCheck,
  ProducerEntry,
} from "./producer-state.js";
