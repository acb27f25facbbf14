// The transaction coordinator (see README.md): the pure state machine of each transactional id,
// the records of `__transaction_state`, and the driver that loads, writes and completes them.
export { DEFAULT_TRANSACTION_CONFIG, type TransactionConfig } from "./transaction-config.js";
export {
  TransactionCoordinator,
  MARKER_RETRY_BACKOFF_MS,
  type InitProducerIdResult,
  type TransactionCoordinatorOptions,
} from "./transaction-coordinator.driver.js";
export type { MarkerRequest, MarkerRound, TransactionMarkerSender } from "./transaction-markers.js";
export {
  TRANSACTION_STATE_TOPIC,
  encodeTransactionRecord,
  replayTransactionRecord,
  type ReplayedTransaction,
} from "./transaction-log-records.js";
export {
  TRANSACTION_STATE_IDS,
  isValidTransition,
  type TopicPartitionRef,
  type TransactionMetadata,
  type TransactionState,
} from "./transaction-metadata.js";
export {
  TransactionStates,
  type ProducerIdentity,
  type TransactionDecision,
} from "./transaction-states.js";
export {
  describeRefusal,
  type TransactionDescription,
  type TransactionFilters,
  type TransactionList,
} from "./transaction-views.js";
