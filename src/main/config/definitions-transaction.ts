/**
 * Configuration keys of the transaction coordinator and the `__transaction_state` topic, with
 * Kafka's defaults and validators, and the coordinator settings read from them.
 */
import type { TransactionConfig } from "../../coordinator/index.js";
import type { ConfigDefinition } from "./config-types.js";
import type { ConfigValues } from "./config-values.js";
import { atLeast, between } from "./validators.js";

/** The keys of transactions. */
export const transactionDefinitions: readonly ConfigDefinition[] = [
  {
    name: "transaction.state.log.num.partitions",
    type: "int",
    defaultValue: 50,
    validator: atLeast(1),
    importance: "high",
    description:
      "The partitions of __transaction_state when it is created; transactional ids are spread " +
      "over them, so it should not change once the topic exists.",
  },
  {
    name: "transaction.state.log.replication.factor",
    type: "int",
    defaultValue: 3,
    // A Java short in Kafka, so its upper bound is Short.MAX_VALUE.
    validator: between(1, 32_767),
    importance: "high",
    description:
      "The replication factor of __transaction_state, capped to the live brokers when the " +
      "topic is created.",
  },
  {
    name: "transaction.max.timeout.ms",
    type: "int",
    defaultValue: 900_000,
    validator: atLeast(1),
    importance: "high",
    description:
      "The longest transaction timeout a producer may ask for; InitProducerId with a longer " +
      "one is refused with INVALID_TRANSACTION_TIMEOUT.",
  },
  {
    name: "transaction.abort.timed.out.transaction.cleanup.interval.ms",
    type: "int",
    defaultValue: 10_000,
    validator: atLeast(1),
    importance: "low",
    description: "How often the coordinator aborts the transactions that ran past their timeout.",
  },
  {
    name: "transactional.id.expiration.ms",
    type: "int",
    defaultValue: 604_800_000,
    validator: atLeast(1),
    importance: "high",
    description:
      "How long the coordinator keeps a transactional id that has no transaction under way " +
      "and no update: then a tombstone removes it from __transaction_state, and its next " +
      "InitProducerId starts afresh with a new producer id.",
  },
  {
    name: "transaction.remove.expired.transaction.cleanup.interval.ms",
    type: "int",
    defaultValue: 3_600_000,
    validator: atLeast(1),
    importance: "low",
    description: "How often the coordinator removes the transactional ids that expired.",
  },
  {
    name: "transaction.partition.verification.enable",
    type: "boolean",
    defaultValue: true,
    importance: "low",
    description:
      "Whether a partition leader asks the transaction coordinator, before it takes the first " +
      "transactional batch of a producer (or a group coordinator the first TxnOffsetCommit of " +
      "a transaction), that the partition is in the producer's ongoing transaction (KIP-890); " +
      "refused batches get INVALID_TXN_STATE, so no transaction hangs on a partition its " +
      "coordinator does not know.",
  },
];

/** Reads the transaction coordinator's settings from validated values. */
export function transactionSettingsOf(values: ConfigValues): TransactionConfig {
  return {
    stateLogNumPartitions: values.number("transaction.state.log.num.partitions"),
    stateLogReplicationFactor: values.number("transaction.state.log.replication.factor"),
    maxTimeoutMs: values.number("transaction.max.timeout.ms"),
    abortTimedOutTransactionCleanupIntervalMs: values.number(
      "transaction.abort.timed.out.transaction.cleanup.interval.ms",
    ),
    transactionalIdExpirationMs: values.number("transactional.id.expiration.ms"),
    removeExpiredTransactionalIdsIntervalMs: values.number(
      "transaction.remove.expired.transaction.cleanup.interval.ms",
    ),
  };
}
