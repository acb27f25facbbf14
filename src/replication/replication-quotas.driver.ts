/**
 * The broker's two replication throttles (KIP-73) on its clock: the leader's, over the bytes it
 * sends to throttled followers, and the follower's, over the bytes its fetchers append for
 * throttled replicas. Each follows the metadata image: `update` rereads the throttled replicas
 * of the topics and the rates of the brokers whose configs a delta changed. The bytes each side
 * counts are exported as `sluice_replication_throttled_bytes_total{side}` (Kafka's
 * LeaderReplication and FollowerReplication byte-rate sensors, as a counter to take the rate of).
 */
import type { BrokerId } from "../common/index.js";
import { ConfigResourceType, type MetadataDelta, type MetadataImage } from "../metadata/index.js";
import type { Clock, MetricsSink } from "../ports/index.js";
import type { TopicPartition } from "../storage/index.js";
import type { Partition } from "./partition.driver.js";
import {
  ReplicationQuota,
  THROTTLE_KEYS,
  throttleBoundOf,
  topicThrottleOf,
  type ThrottleKeys,
} from "./replication-quota.js";
import type { RateWindow } from "./windowed-rate.js";

/** One side's throttle as the fetch paths use it (Kafka's ReplicaQuota). */
export interface ReplicaQuota {
  isThrottled(topicPartition: TopicPartition): boolean;
  isQuotaExceeded(): boolean;
  record(bytes: number): void;
  /** The throttled traffic's rate now, bytes per second. */
  bytesPerSecond(): number;
}

/** Kafka's replication quota window defaults: 11 samples of 1 second. */
export const DEFAULT_REPLICATION_QUOTA_WINDOW: RateWindow = Object.freeze({
  samples: 11,
  windowMs: 1000,
});

export class ReplicationQuotas {
  readonly leader: ReplicaQuota;
  readonly follower: ReplicaQuota;
  private readonly leaderQuota: ReplicationQuota;
  private readonly followerQuota: ReplicationQuota;

  constructor(
    private readonly brokerId: BrokerId,
    ports: { readonly clock: Clock; readonly metrics?: MetricsSink },
    window: RateWindow = DEFAULT_REPLICATION_QUOTA_WINDOW,
  ) {
    this.leaderQuota = new ReplicationQuota(window);
    this.followerQuota = new ReplicationQuota(window);
    this.leader = onClock(this.leaderQuota, { ...ports, side: "leader" });
    this.follower = onClock(this.followerQuota, { ...ports, side: "follower" });
  }

  /**
   * Whether the leader holds back `replicaId`'s fetch of `partition` (Kafka's
   * shouldLeaderThrottle): a follower out of the ISR, of a throttled replica, while the leader's
   * throttled traffic is over its bound. ISR members are never held back, so a throttle cannot
   * shrink the ISR.
   */
  shouldLeaderThrottle(partition: Partition, replicaId: number): boolean {
    if (replicaId < 0 || partition.isr.includes(replicaId as BrokerId)) return false;
    return this.leader.isThrottled(partition.topicPartition) && this.leader.isQuotaExceeded();
  }

  /**
   * Rereads what `delta` may have changed in `image` (Kafka's TopicConfigHandler and
   * BrokerConfigHandler): the rates when a broker's configs changed, the throttled replicas of
   * each topic whose configs changed (a deleted topic's go with them).
   */
  update(delta: MetadataDelta, image: MetadataImage): void {
    const changes = delta.configsDelta?.changedResources.values() ?? [];
    for (const { resource } of changes) {
      if (resource.type === ConfigResourceType.BROKER) this.updateBounds(image);
      if (resource.type !== ConfigResourceType.TOPIC) continue;
      for (const [quota, keys] of this.sides()) {
        quota.updateTopic(
          resource.name,
          topicThrottleOf(image, resource.name, keys, this.brokerId),
        );
      }
    }
  }

  private updateBounds(image: MetadataImage): void {
    for (const [quota, keys] of this.sides()) {
      quota.updateBound(throttleBoundOf(image, keys, this.brokerId));
    }
  }

  private sides(): [ReplicationQuota, ThrottleKeys][] {
    return [
      [this.leaderQuota, THROTTLE_KEYS.leader],
      [this.followerQuota, THROTTLE_KEYS.follower],
    ];
  }
}

/**
 * Kafka's shouldFollowerThrottle: a throttled replica that is not caught up (its last fetch left
 * it behind the leader's high watermark, or it has not fetched yet) while the follower's
 * throttled traffic is over its bound.
 */
export function shouldFollowerThrottle(
  quota: ReplicaQuota | undefined,
  replica: { readonly topicPartition: TopicPartition; readonly lag: number | undefined },
): boolean {
  if (quota === undefined || (replica.lag !== undefined && replica.lag <= 0)) return false;
  return quota.isThrottled(replica.topicPartition) && quota.isQuotaExceeded();
}

function onClock(
  quota: ReplicationQuota,
  ports: { readonly clock: Clock; readonly metrics?: MetricsSink; readonly side: string },
): ReplicaQuota {
  const { clock, side } = ports;
  const counted = ports.metrics?.counter(
    "sluice_replication_throttled_bytes_total",
    "Bytes of throttled replicas counted against the replication throttle (KIP-73), by side.",
    { side },
  );
  return {
    isThrottled: (topicPartition) => quota.isThrottled(topicPartition),
    isQuotaExceeded: () => quota.isQuotaExceeded(clock.monotonicMs()),
    record: (bytes) => {
      quota.record(bytes, clock.monotonicMs());
      counted?.inc(bytes);
    },
    bytesPerSecond: () => quota.bytesPerSecond(clock.monotonicMs()),
  };
}
