/**
 * Kafka's BrokerTopicMetrics (kafka.server:type=BrokerTopicMetrics) as Prometheus counters, named
 * as the JMX exporter's Kafka rules name them (docs/decisions/0009-kafka-metric-names.md): each
 * meter `XPerSec` is `kafka_server_brokertopicmetrics_x_total`, once without labels for all
 * topics and once per topic with `topic`, as Kafka registers an all-topics meter beside one per
 * topic. Counted where Kafka counts them: the Produce handler for each partition it appends, the
 * Fetch handler for each partition it reads.
 */
import { ErrorCode } from "../../common/index.js";
import type { Counter, MetricsSink } from "../../ports/index.js";

/** The meters, by our name: Kafka's MBean name, without `PerSec`, and the help text. */
const METERS = {
  messagesIn: ["MessagesIn", "Records appended by Produce requests, as leader."],
  bytesIn: ["BytesIn", "Bytes of record batches appended by Produce requests, as leader."],
  bytesOut: ["BytesOut", "Bytes of records sent to consumers in Fetch responses."],
  failedProduceRequests: ["FailedProduceRequests", "Partitions of Produce requests that failed."],
  failedFetchRequests: ["FailedFetchRequests", "Partitions of Fetch requests that failed."],
  totalProduceRequests: ["TotalProduceRequests", "Partitions asked to append by Produce."],
  totalFetchRequests: ["TotalFetchRequests", "Partitions read by Fetch, consumers and followers."],
} as const;

type Meter = keyof typeof METERS;

/**
 * Errors Kafka's ReplicaManager does not count as a failed produce (appendToLocalLog): the
 * client asked the wrong broker, or the record is its own fault in a way the client handles.
 */
const PRODUCE_ERRORS_NOT_FAILED: ReadonlySet<number> = new Set([
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.MESSAGE_TOO_LARGE,
  ErrorCode.RECORD_LIST_TOO_LARGE,
  ErrorCode.CORRUPT_MESSAGE,
  ErrorCode.KAFKA_STORAGE_ERROR,
  ErrorCode.UNKNOWN_TOPIC_ID,
]);

/** Errors Kafka's ReplicaManager does not count as a failed fetch (readFromLog). */
const FETCH_ERRORS_NOT_FAILED: ReadonlySet<number> = new Set([
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.UNKNOWN_LEADER_EPOCH,
  ErrorCode.FENCED_LEADER_EPOCH,
  ErrorCode.REPLICA_NOT_AVAILABLE,
  ErrorCode.KAFKA_STORAGE_ERROR,
  ErrorCode.OFFSET_OUT_OF_RANGE,
  ErrorCode.INCONSISTENT_TOPIC_ID,
  ErrorCode.UNKNOWN_TOPIC_ID,
]);

export function metricNameOf(meter: Meter): string {
  return `kafka_server_brokertopicmetrics_${METERS[meter][0].toLowerCase()}_total`;
}

function helpOf(meter: Meter): string {
  const [kafkaName, help] = METERS[meter];
  return `${help} (Kafka's kafka.server:type=BrokerTopicMetrics,name=${kafkaName}PerSec).`;
}

/**
 * The counters of every topic this broker has counted for. A topic gets series only once the
 * broker knows it (an unknown topic counts in the total alone), so a client cannot grow them;
 * `retainTopics` drops the series of topics that are gone, as Kafka removes a deleted topic's.
 */
export class BrokerTopicStats {
  private readonly all: Readonly<Record<Meter, Counter>>;
  private readonly byTopic = new Map<string, Map<Meter, Counter>>();

  constructor(private readonly sink: MetricsSink) {
    const all: Partial<Record<Meter, Counter>> = {};
    for (const meter of Object.keys(METERS) as Meter[]) {
      all[meter] = sink.counter(metricNameOf(meter), helpOf(meter));
    }
    this.all = all as Record<Meter, Counter>;
  }

  /** One partition of a Produce request: appended with its records and bytes, or refused. */
  produced(
    topic: string,
    outcome: { readonly errorCode: number; readonly records: number; readonly bytes: number },
  ): void {
    const isKnown = outcome.errorCode !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    this.mark("totalProduceRequests", topic, { amount: 1, isKnown });
    if (outcome.errorCode === ErrorCode.NONE) {
      this.mark("messagesIn", topic, { amount: outcome.records, isKnown });
      this.mark("bytesIn", topic, { amount: outcome.bytes, isKnown });
    } else if (!PRODUCE_ERRORS_NOT_FAILED.has(outcome.errorCode)) {
      this.mark("failedProduceRequests", topic, { amount: 1, isKnown });
    }
  }

  /**
   * One partition of a Fetch response: read with its records' bytes, or refused. The bytes count
   * as BytesOut only for a consumer; a follower's are replication traffic, as in Kafka.
   */
  fetched(
    topic: string,
    outcome: { readonly errorCode: number; readonly bytes: number; readonly isFollower: boolean },
  ): void {
    const isKnown = outcome.errorCode !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    this.mark("totalFetchRequests", topic, { amount: 1, isKnown });
    if (outcome.errorCode !== ErrorCode.NONE && !FETCH_ERRORS_NOT_FAILED.has(outcome.errorCode)) {
      this.mark("failedFetchRequests", topic, { amount: 1, isKnown });
    }
    if (!outcome.isFollower && outcome.bytes > 0) {
      this.mark("bytesOut", topic, { amount: outcome.bytes, isKnown });
    }
  }

  /** Forgets the series of every topic `isTopic` no longer names. */
  retainTopics(isTopic: (topic: string) => boolean): void {
    for (const [topic, counters] of this.byTopic) {
      if (isTopic(topic)) continue;
      for (const meter of counters.keys()) this.sink.remove?.(metricNameOf(meter), { topic });
      this.byTopic.delete(topic);
    }
  }

  private mark(
    meter: Meter,
    topic: string,
    { amount, isKnown }: { readonly amount: number; readonly isKnown: boolean },
  ): void {
    this.all[meter].inc(amount);
    if (!isKnown) return;
    let counters = this.byTopic.get(topic);
    if (counters === undefined) {
      counters = new Map();
      this.byTopic.set(topic, counters);
    }
    let counter = counters.get(meter);
    if (counter === undefined) {
      counter = this.sink.counter(metricNameOf(meter), helpOf(meter), { topic });
      counters.set(meter, counter);
    }
    counter.inc(amount);
  }
}
