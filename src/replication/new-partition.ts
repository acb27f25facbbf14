/**
 * The making of a hosted partition for a log the replica manager opened: its pure state, seeded
 * from the log's offsets and the high-watermark checkpoint, inside the partition driver, with
 * Kafka's KRaft rule of which followers may join the ISR.
 */
import type { BrokerId } from "../common/index.js";
import type { LocalPartition, MetadataImage } from "../metadata/index.js";
import type { LogManager, PartitionLog } from "../storage/index.js";
import type { AlterPartitionSender } from "./alter-partition-sender.js";
import type { IsrChange } from "./isr-state.js";
import type { PartitionConfig } from "./partition-config.js";
import { Partition } from "./partition.driver.js";
import { PartitionState } from "./partition-state.js";

/** What a new partition takes from the replica manager. */
export interface NewPartitionContext {
  readonly brokerId: BrokerId;
  /** This broker's epoch from its registration (sent with its own ISR entry). */
  readonly brokerEpoch: () => number;
  readonly replicaLagTimeMaxMs: number;
  readonly logManager: LogManager;
  readonly alterPartitionSender: AlterPartitionSender;
  /** Told what each AlterPartition answer did (the replica manager counts them). */
  readonly onIsrChange: (change: IsrChange) => void;
  /** The topic's effective config, read whenever the partition needs it. */
  readonly configOf: (topic: string) => PartitionConfig;
  /** The latest metadata image, for the ISR eligibility of followers. */
  readonly image: () => MetadataImage;
}

/** A partition of `local` over its opened log in `logDir`. */
export function newPartition(
  context: NewPartitionContext,
  opened: { readonly local: LocalPartition; readonly log: PartitionLog; readonly logDir: string },
): Partition {
  const { local, log, logDir } = opened;
  const topicPartition = { topic: local.topicName, partition: local.partitionIndex };
  const { logManager } = context;
  const state = new PartitionState({
    topicId: local.topicId,
    topicName: local.topicName,
    partitionIndex: local.partitionIndex,
    localBrokerId: context.brokerId,
    localBrokerEpoch: context.brokerEpoch(),
    replicaLagTimeMaxMs: context.replicaLagTimeMaxMs,
    minInsyncReplicas: context.configOf(local.topicName).minInsyncReplicas,
    logStartOffset: log.logStartOffset,
    logEndOffset: log.logEndOffset,
    highWatermarkCheckpoint: logManager.highWatermarkOf(topicPartition),
    isReplicaEligible: (replicaId, brokerEpoch) =>
      isReplicaEligible(context.image(), replicaId, brokerEpoch),
  });
  return new Partition({
    topicPartition,
    topicId: local.topicId,
    log,
    logDir,
    state,
    config: () => context.configOf(local.topicName),
    checkpointHighWatermark: (highWatermark) =>
      logManager.setHighWatermark(topicPartition, highWatermark),
    alterPartitionSender: context.alterPartitionSender,
    onIsrChange: context.onIsrChange,
    onStorageFailure: (failedDir, error) => logManager.reportIoError(failedDir, error),
  });
}

/** Kafka's KRaft ISR eligibility: registered, not fenced, not shutting down, same epoch. */
export function isReplicaEligible(
  image: MetadataImage,
  replicaId: BrokerId,
  brokerEpoch: number,
): boolean {
  const broker = image.cluster.brokers.get(replicaId);
  if (broker === undefined || broker.isFenced || broker.isInControlledShutdown) return false;
  return brokerEpoch === -1 || broker.epoch === brokerEpoch;
}
