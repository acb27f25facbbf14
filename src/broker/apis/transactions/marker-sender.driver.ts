/**
 * The transaction coordinator's marker channel (Kafka's TransactionMarkerChannelManager and its
 * completion handler): the markers of one transaction go to each partition's current leader,
 * written here when that is this broker and sent as WriteTxnMarkers otherwise. A partition whose
 * topic is gone is dropped; one without a leader, or answered with a retriable error, is sent
 * again; INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED abandons the transaction,
 * which a newer producer or coordinator has taken over.
 */
import { ErrorCode, brokerId } from "../../../common/index.js";
import type { ClientPool } from "../../../client/index.js";
import type {
  MarkerRequest,
  MarkerRound,
  TopicPartitionRef,
  TransactionMarkerSender,
} from "../../../coordinator/index.js";
import type { Logger } from "../../../ports/index.js";
import { writeTxnMarkers } from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import {
  markerKey,
  writeMarkersLocally,
  type MarkerWriterDependencies,
} from "./write-txn-markers.driver.js";

export interface MarkerSenderOptions {
  readonly brokerId: number;
  readonly metadataCache: MetadataCache;
  /** The listener other brokers are reached on (`inter.broker.listener.name`). */
  readonly listenerName: string;
  readonly pool: ClientPool;
  readonly local: MarkerWriterDependencies;
  readonly logger: Logger;
}

/** Kafka's fatal outcomes of a marker: the transaction is no longer this producer's. */
const ABANDONING = new Set<number>([
  ErrorCode.INVALID_PRODUCER_EPOCH,
  ErrorCode.TRANSACTION_COORDINATOR_FENCED,
]);

export class BrokerMarkerSender implements TransactionMarkerSender {
  constructor(private readonly options: MarkerSenderOptions) {}

  async send(request: MarkerRequest): Promise<MarkerRound> {
    const image = this.options.metadataCache.image;
    const byLeader = new Map<number, TopicPartitionRef[]>();
    const retry: TopicPartitionRef[] = [];
    for (const topicPartition of request.partitions) {
      const topic = image.topics.byName.get(topicPartition.topic);
      // A deleted topic or partition needs no marker (Kafka drops it from the transaction).
      const partition = topic?.partitions.get(topicPartition.partition);
      if (partition === undefined) continue;
      if (partition.leader < 0) {
        retry.push(topicPartition);
        continue;
      }
      const list = byLeader.get(partition.leader) ?? [];
      list.push(topicPartition);
      byLeader.set(partition.leader, list);
    }
    const rounds = await Promise.all(
      [...byLeader].map(([leader, partitions]) => this.sendTo(leader, { ...request, partitions })),
    );
    if (rounds.some((round) => round.kind === "abandoned")) return { kind: "abandoned" };
    for (const round of rounds) if (round.kind === "retry") retry.push(...round.partitions);
    return { kind: "retry", partitions: retry };
  }

  private async sendTo(leader: number, request: MarkerRequest): Promise<MarkerRound> {
    const results =
      leader === this.options.brokerId
        ? await writeMarkersLocally(this.options.local, request)
        : await this.sendRemote(leader, request);
    if (results === undefined) return { kind: "retry", partitions: request.partitions };
    const retry: TopicPartitionRef[] = [];
    for (const topicPartition of request.partitions) {
      const errorCode = results.get(markerKey(topicPartition.topic, topicPartition.partition));
      if (errorCode === ErrorCode.NONE) continue;
      if (errorCode !== undefined && ABANDONING.has(errorCode)) return { kind: "abandoned" };
      retry.push(topicPartition);
    }
    if (retry.length > 0) {
      this.options.logger.debug("transaction markers will be sent again", {
        leader,
        producerId: request.producerId,
        partitions: retry.length,
      });
    }
    return { kind: "retry", partitions: retry };
  }

  /** WriteTxnMarkers to another broker; undefined when no answer came. */
  private async sendRemote(
    leader: number,
    request: MarkerRequest,
  ): Promise<Map<string, number> | undefined> {
    const endpoint = this.options.metadataCache
      .aliveBrokers(this.options.listenerName)
      .find((broker) => broker.brokerId === leader);
    if (endpoint === undefined) return undefined;
    const { pool } = this.options;
    pool.setNodeAddress(brokerId(leader), { host: endpoint.host, port: endpoint.port });
    const topics = new Map<string, number[]>();
    for (const { topic, partition } of request.partitions) {
      topics.set(topic, [...(topics.get(topic) ?? []), partition]);
    }
    const result = await pool.send(brokerId(leader), writeTxnMarkers, {
      markers: [
        {
          producerId: request.producerId,
          producerEpoch: request.producerEpoch,
          transactionResult: request.committed,
          coordinatorEpoch: request.coordinatorEpoch,
          topics: [...topics].map(([name, partitionIndexes]) => ({ name, partitionIndexes })),
        },
      ],
    });
    if (result.kind !== "response") return undefined;
    const results = new Map<string, number>();
    for (const marker of result.body.markers) {
      for (const topic of marker.topics) {
        for (const partition of topic.partitions) {
          results.set(markerKey(topic.name, partition.partitionIndex), partition.errorCode);
        }
      }
    }
    return results;
  }
}
