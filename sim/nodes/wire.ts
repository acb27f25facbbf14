/**
 * The requests the simulated clients send, built and read with the project's protocol codec:
 * Metadata (leaders and ISRs), a one-record Produce, a Fetch decoded into offsets and values.
 * Every function answers a plain value, or undefined when the node did not answer usefully.
 */
import { ErrorCode } from "../../src/common/index.js";
import {
  decodeRecords,
  encodeBatch,
  fetch,
  initProducerId as initProducerIdApi,
  iterateBatches,
  metadata,
  produce,
} from "../../src/protocol/index.js";
import type { ReadRecord } from "./history.js";
import type { SimClient } from "./sim-client.js";

/** One partition as Metadata shows it. */
export interface PartitionState {
  readonly leader: number;
  readonly leaderEpoch: number;
  readonly isr: readonly number[];
}

const BATCH_BYTES_MAX = 16 * 1024 * 1024;
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** The partitions of `topic` as node `nodeId` knows them. */
export async function partitionsOf(
  client: SimClient,
  nodeId: number,
  topic: string,
): Promise<Map<number, PartitionState> | undefined> {
  return (await clusterOf(client, nodeId, topic))?.partitions;
}

/** What one Metadata answer said: the live (unfenced) brokers and the topic's partitions. */
export interface ClusterView {
  readonly brokers: readonly number[];
  readonly partitions: Map<number, PartitionState>;
}

/** The brokers and the partitions of `topic` as node `nodeId` knows them. */
export async function clusterOf(
  client: SimClient,
  nodeId: number,
  topic: string,
): Promise<ClusterView | undefined> {
  const body = { topics: [{ name: topic }], allowAutoTopicCreation: false };
  const result = await client.call(nodeId, metadata, body, 12);
  if (result.kind !== "response") return undefined;
  const brokers = result.body.brokers.map((broker) => broker.nodeId);
  const found = result.body.topics.find((entry) => entry.name === topic);
  if (found === undefined || found.errorCode !== ErrorCode.NONE) return undefined;
  const partitions = new Map<number, PartitionState>();
  for (const entry of found.partitions) {
    const { leaderId: leader, leaderEpoch, isrNodes: isr } = entry;
    partitions.set(entry.partitionIndex, { leader, leaderEpoch, isr });
  }
  return { brokers, partitions };
}

/** How a produce of one record ended. */
export type ProduceOutcome =
  | { readonly kind: "ok"; readonly offset: number }
  | { readonly kind: "refused"; readonly errorCode: number }
  | { readonly kind: "unanswered"; readonly reason: string };

/** The producer id, epoch and sequence of an idempotent producer's batch. */
export interface ProducerStamp {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
}

const NO_PRODUCER: ProducerStamp = { producerId: -1, producerEpoch: -1, baseSequence: -1 };

/** A producer id and epoch from InitProducerId (no transactional id), or undefined. */
export async function initProducerId(
  client: SimClient,
  nodeId: number,
): Promise<{ readonly producerId: number; readonly producerEpoch: number } | undefined> {
  const body = { transactionalId: null, transactionTimeoutMs: 60_000 };
  const result = await client.call(nodeId, initProducerIdApi, body, 4);
  if (result.kind !== "response" || result.body.errorCode !== ErrorCode.NONE) return undefined;
  return { producerId: result.body.producerId, producerEpoch: result.body.producerEpoch };
}

/** Produces one record with `value` to `leader`, with `acks` (and `stamp`, if idempotent). */
export async function produceOne(
  client: SimClient,
  leader: number,
  target: { readonly topic: string; readonly partition: number; readonly acks: number },
  value: string,
  stamp: ProducerStamp = NO_PRODUCER,
): Promise<ProduceOutcome> {
  const records = encodeBatch({
    ...{ baseOffset: 0, partitionLeaderEpoch: -1, compression: "none" },
    ...{ timestampType: "createTime", isTransactional: false, isControl: false },
    ...stamp,
    records: [
      {
        timestamp: client.machine.clock.nowMs(),
        key: null,
        value: textEncoder.encode(value),
        headers: [],
      },
    ],
  });
  const partitionData = [{ index: target.partition, records }];
  const body = {
    transactionalId: null,
    acks: target.acks,
    timeoutMs: 2000,
    topicData: [{ name: target.topic, partitionData }],
  };
  const result = await client.call(leader, produce, body, 9);
  if (result.kind !== "response") return { kind: "unanswered", reason: result.kind };
  const answer = result.body.responses[0]?.partitionResponses[0];
  if (answer === undefined) return { kind: "unanswered", reason: "no partition in the answer" };
  if (answer.errorCode !== ErrorCode.NONE) return { kind: "refused", errorCode: answer.errorCode };
  return { kind: "ok", offset: answer.baseOffset };
}

/** What one Fetch returned of a partition. */
export interface Fetched {
  readonly records: readonly ReadRecord[];
  readonly highWatermark: number;
  /** The offset to fetch next. */
  readonly next: number;
}

/** Fetches `partition` of `topic` from `leader` at `offset`, as a consumer does. */
export async function fetchFrom(
  client: SimClient,
  leader: number,
  target: { readonly topic: string; readonly partition: number },
  offset: number,
): Promise<Fetched | undefined> {
  const partitions = [
    {
      ...{ partition: target.partition, currentLeaderEpoch: -1, fetchOffset: offset },
      ...{ lastFetchedEpoch: -1, logStartOffset: -1, partitionMaxBytes: 1_048_576 },
    },
  ];
  const body = {
    ...{ replicaId: -1, maxWaitMs: 100, minBytes: 1, maxBytes: 4_194_304, isolationLevel: 0 },
    ...{ sessionId: 0, sessionEpoch: -1, forgottenTopicsData: [], rackId: "" },
    topics: [{ topic: target.topic, partitions }],
  };
  const result = await client.call(leader, fetch, body, 12);
  if (result.kind !== "response" || result.body.errorCode !== ErrorCode.NONE) return undefined;
  const data = result.body.responses[0]?.partitions[0];
  if (data === undefined || data.errorCode !== ErrorCode.NONE) return undefined;
  const records: ReadRecord[] = [];
  let next = offset;
  for (const entry of iterateBatches(data.records ?? new Uint8Array(0), {
    maxBatchBytes: BATCH_BYTES_MAX,
  })) {
    if (entry.kind !== "batch") break;
    const { header } = entry;
    if (!header.isControl) {
      const decoded = decodeRecords(entry.bytes, { maxDecompressedBytes: BATCH_BYTES_MAX });
      if (!decoded.ok) return undefined;
      for (const record of decoded.records) {
        if (record.offset < offset) continue;
        const value = record.value === null ? "" : textDecoder.decode(record.value);
        records.push({ offset: record.offset, value });
      }
    }
    next = Math.max(next, header.baseOffset + header.lastOffsetDelta + 1);
  }
  return { records, highWatermark: data.highWatermark, next };
}
