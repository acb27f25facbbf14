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

/** Per topic, its throttled partitions on this broker, or "all" for "*". */
export type ThrottledReplicas = ReadonlyMap<string, "all" | ReadonlySet<number>>;

/** What a throttle obeys; `boundBytesPerSecond` is Infinity for no bound. */
export interface QuotaSettings {
  readonly boundBytesPerSecond: number;
  readonly throttled: ThrottledReplicas;
}

export class ReplicationQuota {
  private readonly rate: WindowedRate;
  private settings: QuotaSettings = { boundBytesPerSecond: Infinity, throttled: new Map() };

  constructor(window: RateWindow) {
    this.rate = new WindowedRate(window);
  }

  /** Takes new replicas and bound; the bytes measured so far still count. */
  update(settings: QuotaSettings): void {
    this.settings = settings;
  }

  get boundBytesPerSecond(): number {
    return this.settings.boundBytesPerSecond;
  }

  isThrottled(topicPartition: TopicPartition): boolean {
    const partitions = this.settings.throttled.get(topicPartition.topic);
    if (partitions === undefined) return false;
    return partitions === "all" || partitions.has(topicPartition.partition);
  }

  /** Whether the throttled traffic's rate is above the bound (Kafka's Quota.acceptable). */
  isQuotaExceeded(nowMs: number): boolean {
    if (this.settings.boundBytesPerSecond === Infinity) return false;
    return this.rate.perSecond(nowMs) > this.settings.boundBytesPerSecond;
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
export const THROTTLE_KEYS = {
  leader: {
    rate: "leader.replication.throttled.rate",
    replicas: "leader.replication.throttled.replicas",
  },
  follower: {
    rate: "follower.replication.throttled.rate",
    replicas: "follower.replication.throttled.replicas",
  },
} as const;

/** The settings of one side on broker `brokerId`, read from `image`. */
export function quotaSettingsOf(
  image: MetadataImage,
  keys: { readonly rate: string; readonly replicas: string },
  brokerId: number,
): QuotaSettings {
  const brokerValue = (name: string) =>
    image.configs.resources
      .get(configResourceKey({ type: ConfigResourceType.BROKER, name }))
      ?.values.get(keys.rate);
  const rate = brokerValue(String(brokerId)) ?? brokerValue("");
  const throttled = new Map<string, "all" | ReadonlySet<number>>();
  for (const configs of image.configs.resources.values()) {
    if (configs.resource.type !== ConfigResourceType.TOPIC) continue;
    const value = configs.values.get(keys.replicas);
    if (value === undefined) continue;
    const partitions = throttledPartitionsOf(value, brokerId);
    if (partitions !== undefined) throttled.set(configs.resource.name, partitions);
  }
  return { boundBytesPerSecond: boundOf(rate), throttled };
}

/** A rate the controller validated as a long of at least 0; anything else is no bound. */
function boundOf(rate: string | undefined): number {
  if (rate === undefined || !/^\d+$/.test(rate.trim())) return Infinity;
  return Number(rate);
}

/**
 * Kafka's parseThrottledPartitions: "*" throttles every partition; otherwise the partitions of
 * the "partition:broker" items naming this broker. Empty (or unparsable, which the controller
 * refuses) is no throttle.
 */
export function throttledPartitionsOf(
  value: string,
  brokerId: number,
): "all" | ReadonlySet<number> | undefined {
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
