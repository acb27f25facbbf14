/**
 * The replicas a broker hosts (Kafka's ReplicaManager.allPartitions with HostedPartition): online
 * with their driver, or offline because their log dir failed. A partition not hosted gets
 * NOT_LEADER_OR_FOLLOWER when the topic exists in the metadata and UNKNOWN_TOPIC_OR_PARTITION
 * otherwise, as Kafka's getPartitionOrError answers.
 */
import { ErrorCode } from "../common/index.js";
import type { MetadataImage } from "../metadata/index.js";
import {
  partitionFolderName,
  type GetOrCreateLogResult,
  type PartitionLog,
  type TopicPartition,
} from "../storage/index.js";
import type { Partition } from "./partition.driver.js";

/** One hosted replica. */
export type HostedPartition =
  | { readonly kind: "online"; readonly partition: Partition }
  | { readonly kind: "offline"; readonly logDir: string | undefined };

/** A partition to work on, or the error to answer instead. */
export type PartitionLookup =
  | { readonly kind: "online"; readonly partition: Partition }
  | { readonly kind: "error"; readonly errorCode: number };

/** The hosted replicas by `<topic>-<partition>`. */
export class HostedPartitions {
  private readonly hosted = new Map<string, HostedPartition>();

  get(topicPartition: TopicPartition): HostedPartition | undefined {
    return this.hosted.get(partitionFolderName(topicPartition));
  }

  has(topicPartition: TopicPartition): boolean {
    return this.hosted.has(partitionFolderName(topicPartition));
  }

  set(topicPartition: TopicPartition, hosted: HostedPartition): void {
    this.hosted.set(partitionFolderName(topicPartition), hosted);
  }

  /**
   * Hosts a replica whose log the log manager just made (`make` builds its driver), or offline
   * when it could not be made; one hosted meanwhile (its dir failed during the batch) stays.
   */
  hostCreated(
    topicPartition: TopicPartition,
    created: GetOrCreateLogResult,
    make: (log: PartitionLog, logDir: string) => Partition,
  ): void {
    if (this.has(topicPartition)) return;
    if (created.kind === "log") {
      this.set(topicPartition, { kind: "online", partition: make(created.log, created.logDir) });
    } else {
      const logDir = created.kind === "offlineDir" ? created.logDir : undefined;
      this.set(topicPartition, { kind: "offline", logDir });
    }
  }

  /**
   * Forgets that `partitions` are offline in `logDir` (the dir is back): the metadata hosts
   * them again as it next makes them leaders or followers.
   */
  forgetOffline(partitions: readonly TopicPartition[], logDir: string): void {
    for (const topicPartition of partitions) {
      const hosted = this.get(topicPartition);
      if (hosted?.kind === "offline" && hosted.logDir === logDir) this.delete(topicPartition);
    }
  }

  delete(topicPartition: TopicPartition): HostedPartition | undefined {
    const key = partitionFolderName(topicPartition);
    const hosted = this.hosted.get(key);
    this.hosted.delete(key);
    return hosted;
  }

  online(): Partition[] {
    const partitions: Partition[] = [];
    for (const hosted of this.hosted.values()) {
      if (hosted.kind === "online") partitions.push(hosted.partition);
    }
    return partitions;
  }

  offlineCount(): number {
    let count = 0;
    for (const hosted of this.hosted.values()) if (hosted.kind === "offline") count++;
    return count;
  }

  /** Kafka's getPartitionOrError. */
  lookup(topicPartition: TopicPartition, image: MetadataImage): PartitionLookup {
    const hosted = this.get(topicPartition);
    if (hosted?.kind === "online") return hosted;
    if (hosted?.kind === "offline")
      return { kind: "error", errorCode: ErrorCode.KAFKA_STORAGE_ERROR };
    const topic = image.topics.byName.get(topicPartition.topic);
    const exists = topic?.partitions.has(topicPartition.partition) ?? false;
    const errorCode = exists
      ? ErrorCode.NOT_LEADER_OR_FOLLOWER
      : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    return { kind: "error", errorCode };
  }
}
