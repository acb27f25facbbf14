/**
 * Shared fixtures of the replication tests: registrations, hand-built batches, and a partition
 * driver on the simulated disk with a real PartitionLog.
 */
import { brokerId, type BrokerId, type LeaderEpoch, type Uuid } from "../../src/common/index.js";
import type { PartitionRegistration } from "../../src/metadata/index.js";
import { encodeBatch, type EncodeBatchOptions, type NewRecord } from "../../src/protocol/index.js";
import {
  DEFAULT_REPLICA_FETCHER_SETTINGS,
  defaultPartitionConfig,
  partitionKey,
  Partition,
  PartitionState,
  type AlterPartitionItem,
  type AlterPartitionOutcome,
  type AlterPartitionSender,
  type PartitionConfig,
  type ReplicationNetwork,
} from "../../src/replication/index.js";
import { defaultLogConfig } from "../../src/storage/index.js";
import { LogHarness } from "../storage/log-harness.js";

export const TOPIC_ID = "0123456789abcdef0123456789abcdef" as Uuid;
export const LOCAL = brokerId(1);

/** A registration with Kafka's defaults for the fields a test does not set. */
export function registration(fields: {
  replicas: number[];
  isr?: number[];
  leader: number;
  leaderEpoch?: number;
  partitionEpoch?: number;
}): PartitionRegistration {
  return {
    replicas: fields.replicas as BrokerId[],
    directories: [],
    isr: (fields.isr ?? fields.replicas) as BrokerId[],
    removingReplicas: [],
    addingReplicas: [],
    leader: fields.leader as BrokerId,
    leaderRecoveryState: "recovered",
    leaderEpoch: (fields.leaderEpoch ?? 0) as LeaderEpoch,
    partitionEpoch: fields.partitionEpoch ?? 0,
    eligibleLeaderReplicas: [],
    lastKnownElr: [],
  };
}

/** A partition state of broker 1 with an empty log. */
export function newState(
  options: { minInsyncReplicas?: number; logEndOffset?: number } = {},
): PartitionState {
  return new PartitionState({
    topicId: TOPIC_ID,
    topicName: "orders",
    partitionIndex: 0,
    localBrokerId: LOCAL,
    localBrokerEpoch: 7,
    replicaLagTimeMaxMs: 30_000,
    minInsyncReplicas: options.minInsyncReplicas ?? 1,
    logStartOffset: 0,
    logEndOffset: options.logEndOffset ?? 0,
    highWatermarkCheckpoint: undefined,
  });
}

const encoder = new TextEncoder();

/** A consumer's read (replica id -1) of a partition, without its offset and time. */
export const consumerRead = {
  maxBytes: 1 << 20,
  isolation: "read_uncommitted",
  currentLeaderEpoch: -1,
  replicaId: -1,
  minOneBatch: true,
  logStartOffset: -1,
  brokerEpoch: -1,
  lastFetchedEpoch: -1,
  fetchOnlyLeader: true,
} as const;

/** A client batch (base offset 0) of records with the given keys, values and timestamps. */
export function clientBatch(
  records: readonly { key?: string | null; value?: string; timestamp: number }[],
  options: Partial<EncodeBatchOptions> = {},
): Uint8Array {
  const newRecords: NewRecord[] = records.map((record, index) => ({
    timestamp: record.timestamp,
    key: record.key === undefined || record.key === null ? null : encoder.encode(record.key),
    value: encoder.encode(record.value ?? `value-${index}`),
  }));
  return encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: newRecords,
    ...options,
  });
}

/** An AlterPartition sender that records proposals and answers them as told. */
export class RecordingSender implements AlterPartitionSender {
  readonly sent: AlterPartitionItem[] = [];
  answer: (item: AlterPartitionItem) => AlterPartitionOutcome = (item) => ({
    kind: "updated",
    leaderEpoch: item.leaderEpoch,
    partitionEpoch: item.partitionEpoch + 1,
    isr: item.newIsrWithEpochs.map((member) => member.brokerId),
    leaderRecoveryState: item.leaderRecoveryState,
  });

  submit(item: AlterPartitionItem): Promise<AlterPartitionOutcome> {
    this.sent.push(item);
    return Promise.resolve(this.answer(item));
  }
}

/** A partition driver on a simulated disk with a real PartitionLog. */
export async function newPartition(
  seed: number,
  config: PartitionConfig = defaultPartitionConfig(defaultLogConfig),
): Promise<{
  harness: LogHarness;
  partition: Partition;
  sender: RecordingSender;
  checkpoints: number[];
}> {
  const harness = new LogHarness(seed);
  const log = await harness.open(config.log);
  const sender = new RecordingSender();
  const checkpoints: number[] = [];
  const state = newState({ logEndOffset: log.logEndOffset });
  const partition = new Partition({
    topicPartition: { topic: "orders", partition: 0 },
    topicId: TOPIC_ID,
    log,
    logDir: "/data",
    state,
    config: () => config,
    checkpointHighWatermark: (highWatermark) => checkpoints.push(highWatermark),
    alterPartitionSender: sender,
    onIsrChange: () => undefined,
    onStorageFailure: () => undefined,
  });
  return { harness, partition, sender, checkpoints };
}

/**
 * The replication network of a broker tested alone: other brokers may be registered, but every
 * request to them fails as if they were down, so its followers fetch nothing.
 */
export function unreachableNetwork(): ReplicationNetwork {
  const failed = { kind: "failed", message: "no other broker runs in this test" } as const;
  return {
    listenerName: "PLAINTEXT",
    endpointOf: () => ({
      fetch: () => Promise.resolve(failed),
      endOffsetsForEpochs: (queries) =>
        Promise.resolve(
          new Map(queries.map((query) => [partitionKey(query.topicPartition), failed])),
        ),
      fetchOffset: () => Promise.resolve(failed),
    }),
    fetchers: DEFAULT_REPLICA_FETCHER_SETTINGS,
  };
}
