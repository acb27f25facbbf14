/**
 * Registers the transaction APIs on a client router, over one TransactionCoordinator and the
 * group coordinator that holds transactional offsets: AddPartitionsToTxn, AddOffsetsToTxn,
 * EndTxn, TxnOffsetCommit, WriteTxnMarkers, DescribeTransactions and ListTransactions
 * (FindCoordinator and InitProducerId are
 * registered with the group APIs and the idempotent producer).
 */
import type { GroupCoordinator, TransactionCoordinator } from "../../../coordinator/index.js";
import type { ApiKey } from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import type { ProduceVerifier } from "../produce-verification.js";
import type { ApiHandler } from "../../router/handler.js";
import { addPartitionsToTxnHandler } from "./add-partitions-to-txn.driver.js";
import { addOffsetsToTxnHandler, endTxnHandler } from "./transaction-apis.driver.js";
import { describeTransactionsHandler, listTransactionsHandler } from "./transaction-admin.js";
import { txnOffsetCommitHandler } from "./txn-offset-commit.driver.js";
import {
  writeTxnMarkersHandler,
  type MarkerWriterDependencies,
} from "./write-txn-markers.driver.js";

export interface TransactionApiDependencies {
  readonly transactions: TransactionCoordinator;
  readonly groups: GroupCoordinator;
  readonly metadataCache: MetadataCache;
  /** What WriteTxnMarkers appends with. */
  readonly markers: MarkerWriterDependencies;
  /** Wall-clock time, for commit timestamps. */
  readonly clock: { nowMs(): number };
  /** TxnOffsetCommit's check with the transaction coordinator (KIP-890), when it is on. */
  readonly verifier?: Pick<ProduceVerifier, "verifyOffsetCommit">;
}

/** Registers the transaction APIs (call before registerApiVersions). */
export function registerTransactionApis(
  router: { register<K extends ApiKey>(handler: ApiHandler<K>): void },
  dependencies: TransactionApiDependencies,
): void {
  const { transactions, groups, metadataCache, clock, verifier } = dependencies;
  router.register(addPartitionsToTxnHandler(transactions, metadataCache));
  router.register(addOffsetsToTxnHandler(transactions, groups));
  router.register(endTxnHandler(transactions));
  const verified = verifier === undefined ? {} : { verifier };
  router.register(txnOffsetCommitHandler(groups, { metadataCache, clock, ...verified }));
  router.register(writeTxnMarkersHandler(dependencies.markers));
  router.register(describeTransactionsHandler(transactions));
  router.register(listTransactionsHandler(transactions));
}
