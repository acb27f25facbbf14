/**
 * The partition leader's check of a transactional produce (KIP-890 part 1, Kafka's
 * ReplicaManager with its AddPartitionsToTxnManager): before a producer's first transactional
 * batch on a partition where no transaction of its is ongoing, the leader starts a verification
 * in the partition's log (its guard) and asks the coordinator of the transactional id whether the
 * partition is in the producer's ongoing transaction: itself when it leads that
 * `__transaction_state` partition, else with AddPartitionsToTxn v4+ (`verifyOnly`) on the
 * inter-broker listener. The append then brings the guard back to the log, which takes the
 * batch only if no transactional batch was written meanwhile.
 *
 * Refusals are Kafka's, as a producer understands them: INVALID_TXN_STATE (not in the
 * transaction, or the coordinator refused this broker's CLUSTER_ACTION), INVALID_PRODUCER_EPOCH
 * (fenced), INVALID_PRODUCER_ID_MAPPING, and NOT_ENOUGH_REPLICAS (which producers retry without
 * a metadata refresh) while the coordinator is unknown, busy, moving, or did not answer. A
 * coordinator that does not serve v4 lets the batch in unverified, as Kafka does.
 */
import { ErrorCode, brokerId } from "../../common/index.js";
import type { ClientPool } from "../../client/index.js";
import {
  TRANSACTION_STATE_TOPIC,
  type TopicPartitionRef,
  type TransactionCoordinator,
} from "../../coordinator/index.js";
import type { Logger } from "../../ports/index.js";
import { addPartitionsToTxn, iterateBatches } from "../../protocol/index.js";
import type { ProduceEntry } from "../../replication/index.js";
import type { PartitionTransactions, TopicPartition } from "../../storage/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { topicPartitionKey } from "../purgatory/delayed-operation.js";

export interface ProduceVerifierOptions {
  readonly brokerId: number;
  /** This broker's transaction coordinator: its partition mapping and its own answers. */
  readonly transactions: Pick<TransactionCoordinator, "partitionFor" | "isInTransaction">;
  /** The transactions of a partition led here, where its log keeps the guards. */
  readonly partitionTransactions: (tp: TopicPartition) => PartitionTransactions | undefined;
  readonly metadataCache: MetadataCache;
  /** The listener other brokers are reached on (`inter.broker.listener.name`). */
  readonly listenerName: string;
  readonly pool: ClientPool;
  readonly clock: { nowMs(): number };
  readonly logger: Logger;
}

/** A produce's partitions after the check: those refused, and the others with their guards. */
export interface VerifiedProduce {
  readonly refused: ReadonlyMap<string, number>;
  readonly entries: readonly ProduceEntry[];
}

/** The first version of AddPartitionsToTxn that brokers send (KIP-890). */
const VERIFY_VERSION = 4;

/** Kafka's translation of a verification error into the error a producer understands. */
export function producerErrorOf(errorCode: number): number {
  switch (errorCode) {
    case ErrorCode.PRODUCER_FENCED:
      return ErrorCode.INVALID_PRODUCER_EPOCH;
    case ErrorCode.TRANSACTION_ABORTABLE:
      // Produce v11 and below predate TRANSACTION_ABORTABLE (Kafka's defaultError operation).
      return ErrorCode.INVALID_TXN_STATE;
    case ErrorCode.CONCURRENT_TRANSACTIONS:
    case ErrorCode.NETWORK_EXCEPTION:
    case ErrorCode.COORDINATOR_LOAD_IN_PROGRESS:
    case ErrorCode.COORDINATOR_NOT_AVAILABLE:
    case ErrorCode.NOT_COORDINATOR:
      return ErrorCode.NOT_ENOUGH_REPLICAS;
    default:
      return errorCode;
  }
}

/** The transactional producer of `records`' first batch, if it is one. */
function transactionalHeaderOf(records: Uint8Array) {
  const first = iterateBatches(records, { maxBatchBytes: records.length }).next().value;
  if (first?.kind !== "batch") return undefined;
  const { header } = first;
  return header.isTransactional && header.producerId >= 0 ? header : undefined;
}

export class ProduceVerifier {
  constructor(private readonly options: ProduceVerifierOptions) {}

  /**
   * Starts the check of a produce's transactional batches; answers at once (no await, so the
   * appends keep the order of requests) unless another broker must be asked.
   */
  verify(
    transactionalId: string | null,
    entries: readonly ProduceEntry[],
  ): VerifiedProduce | Promise<VerifiedProduce> {
    if (transactionalId === null) return { refused: new Map(), entries };
    const nowMs = this.options.clock.nowMs();
    const checked: ProduceEntry[] = [];
    const asked: TopicPartitionRef[] = [];
    const mismatched = new Map<string, number>();
    let producer: { readonly producerId: number; readonly producerEpoch: number } | undefined;
    for (const entry of entries) {
      const header = transactionalHeaderOf(entry.records);
      const transactions = this.options.partitionTransactions(entry.topicPartition);
      // Not transactional, or not led here (the append answers NOT_LEADER_OR_FOLLOWER).
      if (header === undefined || transactions === undefined) {
        checked.push(entry);
        continue;
      }
      const { producerId, producerEpoch, baseSequence } = header;
      producer ??= { producerId, producerEpoch };
      if (producer.producerId !== producerId || producer.producerEpoch !== producerEpoch) {
        // Kafka refuses transactional records of more than one producer in one request.
        const key = topicPartitionKey(entry.topicPartition.topic, entry.topicPartition.partition);
        mismatched.set(key, ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        checked.push(entry);
        continue;
      }
      const guard = transactions.startVerification(producerId, {
        ...{ sequence: baseSequence, epoch: producerEpoch, nowMs },
      });
      checked.push({ ...entry, verification: { guard } });
      if (guard !== undefined) asked.push(entry.topicPartition);
    }
    if (asked.length === 0 || producer === undefined) return finish(checked, mismatched);
    const question = { transactionalId, ...producer, partitions: asked };
    const coordinator = this.coordinatorOf(transactionalId);
    const withMismatched = (answers: Map<string, number>) => new Map([...answers, ...mismatched]);
    if (coordinator === this.options.brokerId) {
      return finish(checked, withMismatched(this.answerLocally(question)));
    }
    return this.ask(coordinator, question).then((answers) =>
      finish(checked, withMismatched(answers)),
    );
  }

  /** The broker leading the transactional id's `__transaction_state` partition, if any. */
  private coordinatorOf(transactionalId: string): number | undefined {
    const topic = this.options.metadataCache.image.topics.byName.get(TRANSACTION_STATE_TOPIC);
    const partition = topic?.partitions.get(
      this.options.transactions.partitionFor(transactionalId),
    );
    return partition === undefined || partition.leader < 0 ? undefined : partition.leader;
  }

  private answerLocally(question: Question): Map<string, number> {
    const { transactionalId, producerId, producerEpoch } = question;
    const answers = new Map<string, number>();
    for (const partition of question.partitions) {
      const producer = { producerId, producerEpoch };
      const errorCode = this.options.transactions.isInTransaction(
        transactionalId,
        producer,
        partition,
      );
      answers.set(topicPartitionKey(partition.topic, partition.partition), errorCode);
    }
    return answers;
  }

  /** AddPartitionsToTxn with `verifyOnly` to the coordinator; each asked partition's answer. */
  private async ask(coordinator: number | undefined, question: Question) {
    const all = (errorCode: number) =>
      new Map(question.partitions.map((p) => [topicPartitionKey(p.topic, p.partition), errorCode]));
    const endpoint = this.options.metadataCache
      .aliveBrokers(this.options.listenerName)
      .find((broker) => broker.brokerId === coordinator);
    if (coordinator === undefined || endpoint === undefined) {
      return all(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }
    const { pool } = this.options;
    pool.setNodeAddress(brokerId(coordinator), { host: endpoint.host, port: endpoint.port });
    const result = await pool.send(
      brokerId(coordinator),
      addPartitionsToTxn,
      verifyRequestOf(question),
      {
        minVersion: VERIFY_VERSION,
      },
    );
    if (result.kind === "unsupportedVersion") {
      this.options.logger.warn("the transaction coordinator does not verify partitions", {
        coordinator,
      });
      return new Map<string, number>();
    }
    if (result.kind !== "response") return all(ErrorCode.NETWORK_EXCEPTION);
    const { body } = result;
    // A producer must not see CLUSTER_AUTHORIZATION_FAILED: the partition was not verified.
    if (body.errorCode === ErrorCode.CLUSTER_AUTHORIZATION_FAILED) {
      return all(ErrorCode.INVALID_TXN_STATE);
    }
    if (body.errorCode !== ErrorCode.NONE) return all(body.errorCode);
    const answers = new Map<string, number>();
    for (const transaction of body.resultsByTransaction) {
      if (transaction.transactionalId !== question.transactionalId) continue;
      for (const topic of transaction.topicResults) {
        for (const partition of topic.resultsByPartition) {
          const key = topicPartitionKey(topic.name, partition.partitionIndex);
          answers.set(key, partition.partitionErrorCode);
        }
      }
    }
    return answers;
  }
}

/** One producer's partitions to verify. */
interface Question {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly partitions: readonly TopicPartitionRef[];
}

/** The AddPartitionsToTxn v4+ body that asks about `question`'s partitions only. */
export function verifyRequestOf(question: Question) {
  const topics = new Map<string, number[]>();
  for (const { topic, partition } of question.partitions) {
    topics.set(topic, [...(topics.get(topic) ?? []), partition]);
  }
  return {
    transactions: [
      {
        transactionalId: question.transactionalId,
        producerId: question.producerId,
        producerEpoch: question.producerEpoch,
        verifyOnly: true,
        topics: [...topics].map(([name, partitions]) => ({ name, partitions })),
      },
    ],
  };
}

/**
 * The entries whose answer is NONE (or that were not asked), and the others refused with the
 * error a producer understands. An asked partition the coordinator did not answer is verified,
 * as in Kafka (its guard is still checked at the append).
 */
function finish(checked: readonly ProduceEntry[], answers: ReadonlyMap<string, number>) {
  const refused = new Map<string, number>();
  const entries: ProduceEntry[] = [];
  for (const entry of checked) {
    const key = topicPartitionKey(entry.topicPartition.topic, entry.topicPartition.partition);
    const answer = answers.get(key);
    if (answer === undefined || answer === ErrorCode.NONE) entries.push(entry);
    else refused.set(key, producerErrorOf(answer));
  }
  return { refused, entries };
}
