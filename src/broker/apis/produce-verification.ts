/**
 * The partition leader's check of a transactional produce (KIP-890 part 1, Kafka's
 * ReplicaManager with its AddPartitionsToTxnManager): before a producer's first transactional
 * batch on a partition where no transaction of its is ongoing, the leader starts a verification
 * in the partition's log (its guard) and asks the coordinator of the transactional id whether the
 * partition is in the producer's ongoing transaction (add-partitions-to-txn-manager.ts). The
 * append then brings the guard back to the log, which takes the batch only if no transactional
 * batch was written meanwhile. A TxnOffsetCommit's batch on the group's offsets partition is
 * verified the same way before the group coordinator writes it.
 *
 * Refusals are Kafka's, as a producer understands them: INVALID_TXN_STATE (not in the
 * transaction, or the coordinator refused this broker's CLUSTER_ACTION), INVALID_PRODUCER_EPOCH
 * (fenced), INVALID_PRODUCER_ID_MAPPING, and NOT_ENOUGH_REPLICAS (which producers retry without
 * a metadata refresh) while the coordinator is unknown, busy, moving, or did not answer. A
 * coordinator that does not serve v4 lets the batch in unverified, as Kafka does.
 */
import { ErrorCode } from "../../common/index.js";
import { commitErrorOf, type TopicPartitionRef } from "../../coordinator/index.js";
import { iterateBatches } from "../../protocol/index.js";
import type { ProduceEntry } from "../../replication/index.js";
import type {
  AppendVerification,
  PartitionTransactions,
  TopicPartition,
} from "../../storage/index.js";
import { topicPartitionKey } from "../purgatory/delayed-operation.js";
import type {
  AddPartitionsToTxnManager,
  VerificationAnswers,
  VerificationQuestion,
} from "./add-partitions-to-txn-manager.js";

export interface ProduceVerifierOptions {
  /** Where the questions to transaction coordinators go. */
  readonly manager: Pick<AddPartitionsToTxnManager, "verify">;
  /** The transactions of a partition led here, where its log keeps the guards. */
  readonly partitionTransactions: (tp: TopicPartition) => PartitionTransactions | undefined;
  readonly clock: { nowMs(): number };
}

/** A produce's partitions after the check: those refused, and the others with their guards. */
export interface VerifiedProduce {
  readonly refused: ReadonlyMap<string, number>;
  readonly entries: readonly ProduceEntry[];
}

/**
 * Kafka's translation of a verification error into one a producer retries without a metadata
 * refresh (the manager has already translated PRODUCER_FENCED and TRANSACTION_ABORTABLE).
 */
export function producerErrorOf(errorCode: number): number {
  switch (errorCode) {
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
        sequence: baseSequence,
        epoch: producerEpoch,
        nowMs,
      });
      checked.push({ ...entry, verification: { guard } });
      if (guard !== undefined) asked.push(entry.topicPartition);
    }
    if (asked.length === 0 || producer === undefined) return finish(checked, mismatched);
    const withMismatched = (answers: VerificationAnswers) => new Map([...answers, ...mismatched]);
    const answers = this.options.manager.verify({
      transactionalId,
      ...producer,
      partitions: asked,
    });
    return answers instanceof Promise
      ? answers.then((answered) => finish(checked, withMismatched(answered)))
      : finish(checked, withMismatched(answers));
  }

  /**
   * The check of a TxnOffsetCommit's batch on the group's offsets partition `offsets`, led
   * here (Kafka's group coordinator verifies it as a produce's): the guard its append must bring
   * (undefined when a transaction of the producer is ongoing there, or the partition is not led
   * here), or the error the commit answers, as Kafka's coordinator runtime maps it.
   */
  verifyOffsetCommit(
    question: Omit<VerificationQuestion, "partitions">,
    offsets: TopicPartition,
  ): OffsetCommitVerification | Promise<OffsetCommitVerification> {
    const transactions = this.options.partitionTransactions(offsets);
    const { producerId, producerEpoch } = question;
    const guard = transactions?.startVerification(producerId, {
      sequence: NO_SEQUENCE,
      epoch: producerEpoch,
      nowMs: this.options.clock.nowMs(),
    });
    if (guard === undefined) return { kind: "verified", verification: { guard } };
    const key = topicPartitionKey(offsets.topic, offsets.partition);
    const outcome = (answers: VerificationAnswers): OffsetCommitVerification => {
      const errorCode = answers.get(key);
      if (errorCode === undefined || errorCode === ErrorCode.NONE) {
        return { kind: "verified", verification: { guard } };
      }
      return { kind: "refused", errorCode: offsetCommitErrorOf(errorCode) };
    };
    const answers = this.options.manager.verify({ ...question, partitions: [offsets] });
    return answers instanceof Promise ? answers.then(outcome) : outcome(answers);
  }
}

/** A TxnOffsetCommit's verification: the guard for its append, or the error it answers. */
export type OffsetCommitVerification =
  | { readonly kind: "verified"; readonly verification: AppendVerification }
  | { readonly kind: "refused"; readonly errorCode: number };

/** The sequence of a batch without one, as the group coordinator writes offsets. */
const NO_SEQUENCE = -1;

/**
 * Kafka's translation of a verification error for a transactional offset commit (its
 * coordinator runtime's handleOperationException): NETWORK_EXCEPTION, which older clients may
 * not retry, is COORDINATOR_LOAD_IN_PROGRESS; the rest as a commit's append errors.
 */
export function offsetCommitErrorOf(errorCode: number): number {
  return errorCode === ErrorCode.NETWORK_EXCEPTION
    ? ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
    : commitErrorOf(errorCode);
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
