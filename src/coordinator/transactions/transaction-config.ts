/** The transaction coordinator's settings (Kafka's TransactionStateManagerConfig). */
export interface TransactionConfig {
  /** `transaction.state.log.num.partitions`: transactional ids are spread over them. */
  readonly stateLogNumPartitions: number;
  /** `transaction.state.log.replication.factor`, capped to the live brokers at creation. */
  readonly stateLogReplicationFactor: number;
  /** `transaction.max.timeout.ms`: the longest `transaction.timeout.ms` a producer may ask for. */
  readonly maxTimeoutMs: number;
  /** `transaction.abort.timed.out.transaction.cleanup.interval.ms`: how often expiry is checked. */
  readonly abortTimedOutTransactionCleanupIntervalMs: number;
  /** `transactional.id.expiration.ms`: how long an idle transactional id is kept. */
  readonly transactionalIdExpirationMs: number;
  /** `transaction.remove.expired.transaction.cleanup.interval.ms`: how often ids expire. */
  readonly removeExpiredTransactionalIdsIntervalMs: number;
}

/** Kafka's defaults. */
export const DEFAULT_TRANSACTION_CONFIG: TransactionConfig = {
  stateLogNumPartitions: 50,
  stateLogReplicationFactor: 3,
  maxTimeoutMs: 900_000,
  abortTimedOutTransactionCleanupIntervalMs: 10_000,
  transactionalIdExpirationMs: 604_800_000,
  removeExpiredTransactionalIdsIntervalMs: 3_600_000,
};
