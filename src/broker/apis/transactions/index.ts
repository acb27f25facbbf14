// The transaction API handlers (thin: the logic lives in src/coordinator/transactions).
export {
  registerTransactionApis,
  type TransactionApiDependencies,
} from "./register-transaction-apis.js";
export { ADD_OFFSETS_TO_TXN_VERSIONS, END_TXN_VERSIONS } from "./transaction-apis.driver.js";
export { ADD_PARTITIONS_TO_TXN_VERSIONS } from "./add-partitions-to-txn.driver.js";
export { TXN_OFFSET_COMMIT_VERSIONS } from "./txn-offset-commit.driver.js";
export {
  WRITE_TXN_MARKERS_VERSIONS,
  writeMarkersLocally,
  type MarkerWriterDependencies,
} from "./write-txn-markers.driver.js";
export { BrokerMarkerSender, type MarkerSenderOptions } from "./marker-sender.driver.js";
export { DESCRIBE_TRANSACTIONS_VERSIONS, LIST_TRANSACTIONS_VERSIONS } from "./transaction-admin.js";
