/**
 * The replica fetchers of one broker (Kafka's ReplicaFetcherManager over AbstractFetcherManager):
 * `num.replica.fetchers` fetchers per leader broker, each partition on the fetcher its topic and
 * index hash to, as Kafka spreads them. Adding a partition first takes it from any fetcher of
 * another leader; a fetcher left with no partition is shut down.
 */
import type { BrokerId } from "../common/index.js";
import type { Clock, Logger, Timers } from "../ports/index.js";
import type { TopicPartition } from "../storage/index.js";
import type { PartitionFetchState } from "./fetch-state.js";
import { partitionKey, type LeaderEndpoint } from "./leader-endpoint.driver.js";
import {
  ReplicaFetcher,
  type FetcherHost,
  type ReplicaFetcherSettings,
} from "./replica-fetcher.driver.js";

export interface ReplicaFetcherManagerSettings extends ReplicaFetcherSettings {
  /** `num.replica.fetchers`: fetchers per leader broker. */
  readonly numFetchers: number;
}

/** Kafka's defaults of the replica fetcher configs. */
export const DEFAULT_REPLICA_FETCHER_SETTINGS: ReplicaFetcherManagerSettings = Object.freeze({
  numFetchers: 1,
  maxWaitMs: 500,
  minBytes: 1,
  responseMaxBytes: 10 * 1024 * 1024,
  partitionMaxBytes: 1024 * 1024,
  backoffMs: 1000,
  rackId: "",
});

/** A partition to fetch from `leaderId`. */
export interface FollowedPartition {
  readonly topicPartition: TopicPartition;
  readonly topicId: string;
  readonly leaderId: BrokerId;
  readonly initial: PartitionFetchState;
}

export class ReplicaFetcherManager {
  private readonly fetchers = new Map<string, ReplicaFetcher>();
  /** Which fetcher fetches each partition, by partition key. */
  private readonly assigned = new Map<string, ReplicaFetcher>();

  constructor(
    private readonly host: FetcherHost,
    /** The endpoint of a leader broker (its address is known to the pool it uses). */
    private readonly endpointOf: (leaderId: BrokerId) => LeaderEndpoint,
    private readonly ports: {
      readonly clock: Clock;
      readonly timers: Timers;
      readonly logger: Logger;
    },
    private readonly settings: ReplicaFetcherManagerSettings,
  ) {}

  /** Kafka's getFetcherId: `abs(31 * topic.hashCode() + partition) % num.replica.fetchers`. */
  fetcherIdOf(topicPartition: TopicPartition): number {
    const hash =
      (Math.imul(31, javaStringHash(topicPartition.topic)) + topicPartition.partition) | 0;
    const positive = hash === -0x80000000 ? 0 : Math.abs(hash);
    return positive % this.settings.numFetchers;
  }

  /** Every fetcher with its leader and partitions' states. */
  fetcherStates() {
    return [...this.fetchers.values()].map((fetcher) => ({
      leaderId: fetcher.leaderId,
      fetcherId: fetcher.fetcherId,
      partitions: fetcher.states(),
    }));
  }

  /** Whether a fetcher fetches `topicPartition` now. */
  isFetching(topicPartition: TopicPartition): boolean {
    return this.assigned.get(partitionKey(topicPartition))?.has(topicPartition) ?? false;
  }

  /**
   * Starts fetching each partition from its leader, moving it off a fetcher of another leader
   * first (and waiting for that fetcher's round, so two fetchers never append to one log).
   */
  async addFetcherForPartitions(partitions: readonly FollowedPartition[]): Promise<void> {
    const moving = partitions.filter((followed) => {
      const current = this.assigned.get(partitionKey(followed.topicPartition));
      return current !== undefined && current.leaderId !== followed.leaderId;
    });
    await this.removeFetcherForPartitions(moving.map((followed) => followed.topicPartition));
    const byFetcher = new Map<ReplicaFetcher, FollowedPartition[]>();
    for (const followed of partitions) {
      const fetcher = this.fetcherFor(followed.leaderId, this.fetcherIdOf(followed.topicPartition));
      byFetcher.set(fetcher, [...(byFetcher.get(fetcher) ?? []), followed]);
      this.assigned.set(partitionKey(followed.topicPartition), fetcher);
    }
    for (const [fetcher, added] of byFetcher) fetcher.addPartitions(added);
  }

  /** Stops fetching `partitions`; resolves when no fetcher touches them any more. */
  async removeFetcherForPartitions(partitions: readonly TopicPartition[]): Promise<void> {
    const byFetcher = new Map<ReplicaFetcher, TopicPartition[]>();
    for (const topicPartition of partitions) {
      const key = partitionKey(topicPartition);
      const fetcher = this.assigned.get(key);
      if (fetcher === undefined) continue;
      this.assigned.delete(key);
      byFetcher.set(fetcher, [...(byFetcher.get(fetcher) ?? []), topicPartition]);
    }
    await Promise.all(
      [...byFetcher].map(([fetcher, removed]) => fetcher.removePartitions(removed)),
    );
  }

  /** Shuts down the fetchers that fetch nothing (Kafka's shutdownIdleFetcherThreads). */
  async shutdownIdleFetchers(): Promise<void> {
    const idle = [...this.fetchers].filter(([, fetcher]) => fetcher.partitionCount === 0);
    for (const [key] of idle) this.fetchers.delete(key);
    await Promise.all(idle.map(([, fetcher]) => fetcher.shutdown()));
  }

  async shutdown(): Promise<void> {
    const all = [...this.fetchers.values()];
    this.fetchers.clear();
    this.assigned.clear();
    await Promise.all(all.map((fetcher) => fetcher.shutdown()));
  }

  private fetcherFor(leaderId: BrokerId, fetcherId: number): ReplicaFetcher {
    const key = `${leaderId}/${fetcherId}`;
    let fetcher = this.fetchers.get(key);
    if (fetcher === undefined) {
      const endpoint = this.endpointOf(leaderId);
      fetcher = new ReplicaFetcher(
        leaderId,
        fetcherId,
        endpoint,
        this.host,
        this.ports,
        this.settings,
      );
      this.fetchers.set(key, fetcher);
    }
    return fetcher;
  }
}

/** Java's String.hashCode over UTF-16 code units, as Kafka hashes topic names. */
export function javaStringHash(value: string): number {
  let hash = 0;
  for (let index = 0; index < value.length; index++) {
    hash = (Math.imul(31, hash) + value.charCodeAt(index)) | 0;
  }
  return hash;
}
