/**
 * One side's replication throttle (KIP-73, Kafka's ReplicationQuotaManager): which replicas of
 * which topics are throttled on this broker, the bound in bytes per second, and the rate of the
 * throttled replicas' replication traffic. Every throttled replica's bytes count, in sync or not,
 * so the whole throttled traffic stays under the bound; which replicas are then held back is the
 * caller's rule (only those out of the ISR, so a throttle never shrinks the ISR).
 *
 * The throttled replicas and the bounds come from the metadata image: the topic configs
 * `leader.replication.throttled.replicas` and `follower.replication.throttled.replicas`
 * ("partition:broker,..." or "*"), and the dynamic broker configs
 * `leader.replication.throttled.rate` and `follower.replication.throttled.rate` (this broker's
 * entry, else the cluster default; unset is no bound).
 */
import { ConfigResourceType, configResourceKey, type MetadataImage } from "../metadata/index.js";
import type { TopicPartition } from "../storage/index.js";
import { WindowedRate, type RateWindow } from "./windowed-rate.js";

/** A topic's throttled partitions on this broker, or "all" for "*". */
export type ThrottledPartitions = "all" | ReadonlySet<number>;

export class ReplicationQuota {
  private readonly rate: WindowedRate;
  /** Infinity for no bound. */
  private bound = Infinity;
  private readonly throttled = new Map<string, ThrottledPartitions>();

  constructor(window: RateWindow) {
    this.rate = new WindowedRate(window);
  }

  /** Takes a new bound (Infinity for none); the bytes measured so far still count. */
  updateBound(boundBytesPerSecond: number): void {
    this.bound = boundBytesPerSecond;
  }

  /** Replaces `topic`'s throttled partitions; undefined removes its throttle. */
  updateTopic(topic: string, partitions: ThrottledPartitions | undefined): void {
    if (partitions === undefined) this.throttled.delete(topic);
    else this.throttled.set(topic, partitions);
  }

  isThrottled(topicPartition: TopicPartition): boolean {
    const partitions = this.throttled.get(topicPartition.topic);
    if (partitions === undefined) return false;
    return partitions === "all" || partitions.has(topicPartition.partition);
  }

  /** Whether the throttled traffic's rate is above the bound (Kafka's Quota.acceptable). */
  isQuotaExceeded(nowMs: number): boolean {
    if (this.bound === Infinity) return false;
    return this.rate.perSecond(nowMs) > this.bound;
  }

  /** Counts `bytes` of throttled replication, even when that takes the rate past the bound. */
  record(bytes: number, nowMs: number): void {
    this.rate.record(bytes, nowMs);
  }

  /** The throttled traffic's rate, bytes per second. */
  bytesPerSecond(nowMs: number): number {
    return this.rate.perSecond(nowMs);
  }
}

/** The config keys of one side of the throttle. */
export interface ThrottleKeys {
  readonly rate: string;
  readonly replicas: string;
}

export const THROTTLE_KEYS = {
  leader: {
    rate: "leader.replication.throttled.rate",
    replicas: "leader.replication.throttled.replicas",
  },
  follower: {
    rate: "follower.replication.throttled.rate",
    replicas: "follower.replication.throttled.replicas",
  },
} as const satisfies Record<string, ThrottleKeys>;

/**
 * The bound of one side on broker `brokerId`: its own dynamic config, else the cluster default;
 * Infinity when neither is set (or a value is not a long of at least 0, which the controller
 * refuses).
 */
export function throttleBoundOf(image: MetadataImage, keys: ThrottleKeys, brokerId: number) {
  const valueOf = (name: string) =>
    image.configs.resources
      .get(configResourceKey({ type: ConfigResourceType.BROKER, name }))
      ?.values.get(keys.rate);
  const rate = valueOf(String(brokerId)) ?? valueOf("");
  if (rate === undefined || !/^\d+$/.test(rate.trim())) return Infinity;
  return Number(rate);
}

/** `topic`'s throttled partitions of one side on broker `brokerId`; undefined for none. */
export function topicThrottleOf(
  image: MetadataImage,
  topic: string,
  keys: ThrottleKeys,
  brokerId: number,
): ThrottledPartitions | undefined {
  const value = image.configs.resources
    .get(configResourceKey({ type: ConfigResourceType.TOPIC, name: topic }))
    ?.values.get(keys.replicas);
  return value === undefined ? undefined : throttledPartitionsOf(value, brokerId);
}

/**
 * Kafka's parseThrottledPartitions: "*" throttles every partition; otherwise the partitions of
 * the "partition:broker" items naming this broker. Empty (or unparsable, which the controller
 * refuses) is no throttle.
 */
export function throttledPartitionsOf(
  value: string,
  brokerId: number,
): ThrottledPartitions | undefined {
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  if (items.length === 0) return undefined;
  if (items.length === 1 && items[0] === "*") return "all";
  const partitions = new Set<number>();
  for (const item of items) {
    const match = /^(\d+):(\d+)$/.exec(item);
    if (match === null) return undefined;
    if (Number(match[2]) === brokerId) partitions.add(Number(match[1]));
  }
  return partitions;
}
