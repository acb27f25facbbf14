/**
 * A partition leader's questions to transaction coordinators (KIP-890 part 1, Kafka's
 * AddPartitionsToTxnManager): is each of these partitions in the producer's ongoing transaction?
 * The coordinator of a transactional id is the leader of its `__transaction_state` partition:
 * this broker answers itself at once, another is asked with AddPartitionsToTxn v4+
 * (`verifyOnly`) on the inter-broker listener.
 *
 * One request per coordinator node is in flight at a time; the questions that arrive meanwhile
 * wait and go together in the next one, one per transactional id. A second question of a
 * transactional id already waiting replaces it: the waiting one is answered NETWORK_EXCEPTION
 * (same epoch: the client is retrying) or INVALID_PRODUCER_EPOCH (its epoch is older), and a
 * question of an older epoch than the waiting one is answered INVALID_PRODUCER_EPOCH at once.
 *
 * Answers are the coordinator's, with Kafka's translation for producers: PRODUCER_FENCED is
 * INVALID_PRODUCER_EPOCH and TRANSACTION_ABORTABLE is INVALID_TXN_STATE (Produce up to v11 and
 * TxnOffsetCommit up to v3 predate it). A coordinator that does not serve v4 answers nothing,
 * so the partitions pass unverified, as Kafka lets them.
 *
 * Metrics: kafka_server_addpartitionstotxnmanager_verificationtimems (a histogram, ms from the
 * question to its answer) and ..._verificationfailurerate_count (partitions not verified).
 */
import { ErrorCode, brokerId } from "../../common/index.js";
import type { ClientPool } from "../../client/index.js";
import {
  TRANSACTION_STATE_TOPIC,
  type TopicPartitionRef,
  type TransactionCoordinator,
} from "../../coordinator/index.js";
import type { Counter, Histogram, Logger, MetricsSink } from "../../ports/index.js";
import { addPartitionsToTxn, type AddPartitionsToTxnResponse } from "../../protocol/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { topicPartitionKey } from "../purgatory/delayed-operation.js";

/** One producer's partitions to verify. */
export interface VerificationQuestion {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly partitions: readonly TopicPartitionRef[];
}

/** The error of each partition not verified, by topicPartitionKey; one absent is verified. */
export type VerificationAnswers = ReadonlyMap<string, number>;

export interface AddPartitionsToTxnManagerOptions {
  readonly brokerId: number;
  /** This broker's transaction coordinator: its partition mapping and its own answers. */
  readonly transactions: Pick<TransactionCoordinator, "partitionFor" | "isInTransaction">;
  readonly metadataCache: MetadataCache;
  /** The listener other brokers are reached on (`inter.broker.listener.name`). */
  readonly listenerName: string;
  readonly pool: Pick<ClientPool, "send" | "setNodeAddress">;
  /** Measures how long a verification took, so the monotonic clock. */
  readonly clock: { monotonicMs(): number };
  readonly metrics: MetricsSink;
  readonly logger: Logger;
}

/** The first version of AddPartitionsToTxn that brokers send (KIP-890). */
const VERIFY_VERSION = 4;

const METRICS = "kafka_server_addpartitionstotxnmanager";

/** A question waiting for (or in) a request to its coordinator. */
interface Waiting {
  readonly question: VerificationQuestion;
  readonly startedAtMs: number;
  readonly resolve: (answers: VerificationAnswers) => void;
}

/** Kafka's translation of a coordinator's answer for the producer that asked. */
function translated(errorCode: number): number {
  if (errorCode === ErrorCode.PRODUCER_FENCED) return ErrorCode.INVALID_PRODUCER_EPOCH;
  if (errorCode === ErrorCode.TRANSACTION_ABORTABLE) return ErrorCode.INVALID_TXN_STATE;
  return errorCode;
}

function allOf(question: VerificationQuestion, errorCode: number): Map<string, number> {
  return new Map(
    question.partitions.map((p) => [topicPartitionKey(p.topic, p.partition), errorCode]),
  );
}

export class AddPartitionsToTxnManager {
  private readonly waiting = new Map<number, Map<string, Waiting>>();
  private readonly inFlight = new Set<number>();
  private readonly timeMs: Histogram;
  private readonly failures: Counter;

  constructor(private readonly options: AddPartitionsToTxnManagerOptions) {
    this.timeMs = options.metrics.histogram(
      `${METRICS}_verificationtimems`,
      "From a partition leader's verification question to its answer, ms (Kafka's " +
        "kafka.server:type=AddPartitionsToTxnManager,name=VerificationTimeMs).",
    );
    this.failures = options.metrics.counter(
      `${METRICS}_verificationfailurerate_count`,
      "Partitions whose verification failed (Kafka's " +
        "kafka.server:type=AddPartitionsToTxnManager,name=VerificationFailureRate).",
    );
  }

  /**
   * The answers to `question`: at once (no await, so appends keep the order of requests) when
   * this broker coordinates the transactional id, else once its coordinator has answered.
   */
  verify(question: VerificationQuestion): VerificationAnswers | Promise<VerificationAnswers> {
    const startedAtMs = this.options.clock.monotonicMs();
    const coordinator = this.coordinatorOf(question.transactionalId);
    if (coordinator === this.options.brokerId) {
      return this.answered(startedAtMs, this.answerLocally(question));
    }
    if (coordinator === undefined) {
      return this.answered(startedAtMs, allOf(question, ErrorCode.COORDINATOR_NOT_AVAILABLE));
    }
    return new Promise((resolve) => this.enqueue(coordinator, { question, startedAtMs, resolve }));
  }

  /** The broker leading the transactional id's `__transaction_state` partition, if alive. */
  private coordinatorOf(transactionalId: string): number | undefined {
    const { metadataCache, transactions, listenerName } = this.options;
    const topic = metadataCache.image.topics.byName.get(TRANSACTION_STATE_TOPIC);
    const leader = topic?.partitions.get(transactions.partitionFor(transactionalId))?.leader;
    if (leader === undefined || leader < 0) return undefined;
    if (leader === this.options.brokerId) return leader;
    const alive = metadataCache.aliveBrokers(listenerName).some((b) => b.brokerId === leader);
    return alive ? leader : undefined;
  }

  private answerLocally(question: VerificationQuestion): Map<string, number> {
    const { transactionalId, producerId, producerEpoch } = question;
    const answers = new Map<string, number>();
    for (const partition of question.partitions) {
      const errorCode = this.options.transactions.isInTransaction(
        transactionalId,
        { producerId, producerEpoch },
        partition,
      );
      if (errorCode !== ErrorCode.NONE) {
        answers.set(topicPartitionKey(partition.topic, partition.partition), translated(errorCode));
      }
    }
    return answers;
  }

  /** Records the metrics of answers given now to a question asked at `startedAtMs`. */
  private answered(startedAtMs: number, answers: Map<string, number>): Map<string, number> {
    this.timeMs.observe(this.options.clock.monotonicMs() - startedAtMs);
    if (answers.size > 0) this.failures.inc(answers.size);
    return answers;
  }

  private finish(waiting: Waiting, answers: Map<string, number>): void {
    waiting.resolve(this.answered(waiting.startedAtMs, answers));
  }

  private enqueue(node: number, incoming: Waiting): void {
    const queue = this.waiting.get(node) ?? new Map<string, Waiting>();
    this.waiting.set(node, queue);
    const { transactionalId, producerEpoch } = incoming.question;
    const existing = queue.get(transactionalId);
    if (existing !== undefined) {
      if (producerEpoch < existing.question.producerEpoch) {
        this.finish(incoming, allOf(incoming.question, ErrorCode.INVALID_PRODUCER_EPOCH));
        return;
      }
      const isSameEpoch = producerEpoch === existing.question.producerEpoch;
      const errorCode = isSameEpoch
        ? ErrorCode.NETWORK_EXCEPTION
        : ErrorCode.INVALID_PRODUCER_EPOCH;
      this.finish(existing, allOf(existing.question, errorCode));
    }
    queue.set(transactionalId, incoming);
    this.sendWaiting(node);
  }

  /** Sends what waits for `node` in one request, unless one to it is in flight. */
  private sendWaiting(node: number): void {
    const queue = this.waiting.get(node);
    if (this.inFlight.has(node) || queue === undefined || queue.size === 0) return;
    this.waiting.delete(node);
    this.inFlight.add(node);
    const batch = [...queue.values()];
    void this.ask(node, batch)
      .catch((error: unknown) => {
        this.options.logger.error("verification request failed", { node, error: String(error) });
        return batch.map((waiting) => allOf(waiting.question, ErrorCode.UNKNOWN_SERVER_ERROR));
      })
      .then((answers) => {
        // The next request may go before the answers are delivered.
        this.inFlight.delete(node);
        this.sendWaiting(node);
        batch.forEach((waiting, index) => this.finish(waiting, answers[index] ?? new Map()));
      });
  }

  /** AddPartitionsToTxn with `verifyOnly` for `batch` to `node`: each question's answers. */
  private async ask(node: number, batch: readonly Waiting[]): Promise<Map<string, number>[]> {
    const { pool, metadataCache, listenerName } = this.options;
    const endpoint = metadataCache.aliveBrokers(listenerName).find((b) => b.brokerId === node);
    const all = (errorCode: number) => batch.map((waiting) => allOf(waiting.question, errorCode));
    if (endpoint === undefined) return all(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    pool.setNodeAddress(brokerId(node), { host: endpoint.host, port: endpoint.port });
    const request = verifyRequestOf(batch.map((waiting) => waiting.question));
    const result = await pool.send(brokerId(node), addPartitionsToTxn, request, {
      minVersion: VERIFY_VERSION,
    });
    if (result.kind === "unsupportedVersion") {
      this.options.logger.warn("the transaction coordinator does not verify partitions", { node });
      return batch.map(() => new Map());
    }
    if (result.kind !== "response") return all(ErrorCode.NETWORK_EXCEPTION);
    const { body } = result;
    // A producer must not see CLUSTER_AUTHORIZATION_FAILED: the partition was not verified.
    if (body.errorCode === ErrorCode.CLUSTER_AUTHORIZATION_FAILED) {
      return all(ErrorCode.INVALID_TXN_STATE);
    }
    if (body.errorCode !== ErrorCode.NONE) return all(body.errorCode);
    return batch.map((waiting) => answersOf(body, waiting.question));
  }
}

/** The errors `body` gives the partitions of `question`'s transactional id. */
function answersOf(
  body: AddPartitionsToTxnResponse,
  question: VerificationQuestion,
): Map<string, number> {
  const answers = new Map<string, number>();
  for (const transaction of body.resultsByTransaction) {
    if (transaction.transactionalId !== question.transactionalId) continue;
    for (const topic of transaction.topicResults) {
      for (const partition of topic.resultsByPartition) {
        if (partition.partitionErrorCode === ErrorCode.NONE) continue;
        const key = topicPartitionKey(topic.name, partition.partitionIndex);
        answers.set(key, translated(partition.partitionErrorCode));
      }
    }
  }
  return answers;
}

/** The AddPartitionsToTxn v4+ body that asks about `questions`' partitions only. */
export function verifyRequestOf(questions: readonly VerificationQuestion[]) {
  return {
    transactions: questions.map((question) => {
      const topics = new Map<string, number[]>();
      for (const { topic, partition } of question.partitions) {
        topics.set(topic, [...(topics.get(topic) ?? []), partition]);
      }
      return {
        transactionalId: question.transactionalId,
        producerId: question.producerId,
        producerEpoch: question.producerEpoch,
        verifyOnly: true,
        topics: [...topics].map(([name, partitions]) => ({ name, partitions })),
      };
    }),
  };
}
