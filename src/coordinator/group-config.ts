/**
 * The group coordinator's settings, named after Kafka's config keys, with Kafka's defaults.
 */
import { ErrorCode } from "../common/index.js";
import { DEFAULT_CONSUMER_GROUP_CONFIG, type ConsumerGroupConfig } from "./consumer-group.js";

export interface GroupConfig {
  /** `group.min.session.timeout.ms`: the shortest session a member may ask for. */
  readonly minSessionTimeoutMs: number;
  /** `group.max.session.timeout.ms`: the longest session a member may ask for. */
  readonly maxSessionTimeoutMs: number;
  /** `group.initial.rebalance.delay.ms`: how long the first rebalance of an empty group waits. */
  readonly initialRebalanceDelayMs: number;
  /** `group.max.size`: the most members a group may have. */
  readonly maxSize: number;
  /** `offsets.topic.num.partitions`. */
  readonly offsetsTopicNumPartitions: number;
  /** `offsets.topic.replication.factor` (capped to the live brokers when the topic is made). */
  readonly offsetsTopicReplicationFactor: number;
  /** `offsets.retention.minutes`, in ms: how long offsets of an empty group are kept. */
  readonly offsetsRetentionMs: number;
  /** `offset.metadata.max.bytes`: the longest metadata string a commit may carry. */
  readonly offsetMetadataMaxBytes: number;
  /** The `group.consumer.*` settings of KIP-848 consumer groups. */
  readonly consumer: ConsumerGroupConfig;
}

export const DEFAULT_GROUP_CONFIG: GroupConfig = Object.freeze({
  minSessionTimeoutMs: 6_000,
  maxSessionTimeoutMs: 1_800_000,
  initialRebalanceDelayMs: 3_000,
  maxSize: 2_147_483_647,
  offsetsTopicNumPartitions: 50,
  offsetsTopicReplicationFactor: 3,
  offsetsRetentionMs: 7 * 24 * 60 * 60 * 1000,
  offsetMetadataMaxBytes: 4096,
  consumer: DEFAULT_CONSUMER_GROUP_CONFIG,
});

/** The internal topic that holds committed offsets and group metadata. */
export const OFFSETS_TOPIC = "__consumer_offsets";

/**
 * Java's String.hashCode over UTF-16 code units, as a signed 32-bit integer; Kafka places a
 * group with it, so Sluice must too for clients and tools that compute the partition.
 */
export function javaStringHashCode(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index++) {
    hash = (Math.imul(hash, 31) + text.charCodeAt(index)) | 0;
  }
  return hash;
}

/** The `__consumer_offsets` partition of a group: Kafka's Utils.abs(hashCode) % partitions. */
export function offsetsPartitionFor(groupId: string, partitionCount: number): number {
  const hash = javaStringHashCode(groupId);
  // Kafka's Utils.abs maps Integer.MIN_VALUE to 0 rather than overflowing.
  const absolute = hash === -2147483648 ? 0 : Math.abs(hash);
  return absolute % partitionCount;
}

/** Why a JoinGroup is refused before its group is looked at (as Kafka checks first), or NONE. */
export function joinRequestError(
  groupId: string,
  sessionTimeoutMs: number,
  config: Pick<GroupConfig, "minSessionTimeoutMs" | "maxSessionTimeoutMs">,
): number {
  if (groupId === "") return ErrorCode.INVALID_GROUP_ID;
  const isTooShort = sessionTimeoutMs < config.minSessionTimeoutMs;
  if (isTooShort || sessionTimeoutMs > config.maxSessionTimeoutMs) {
    return ErrorCode.INVALID_SESSION_TIMEOUT;
  }
  return ErrorCode.NONE;
}
