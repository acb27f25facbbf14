// Idempotent producers' state per partition: sequence checks, duplicates, expiry, rebuilding.
export {
  BATCHES_RETAINED,
  PRODUCER_EXPIRATION_CHECK_INTERVAL_MS,
  ProducerStateManager,
} from "./producer-state.js";
export { isProducerBatch, lastSequenceOf, NO_PRODUCER_ID } from "./producer-batch.js";
export type { ProducerBatchHeader } from "./producer-batch.js";
export { activeProducersOf, lastRecordsOf } from "./active-producers.js";
export type { ActiveProducer, LastRecordOfProducer } from "./active-producers.js";
export type {
  BatchMetadata,
  CompletedTransaction,
  MarkerBatch,
  ProducerBatch,
  ProducerCheck,
  ProducerEntry,
  PartitionTransactions,
} from "./producer-state.js";
export { TransactionVerifications } from "./transaction-verifications.js";
export type { VerificationGuard } from "./transaction-verifications.js";
