/**
 * The broker's metadata cache (Kafka's KRaftMetadataCache): a MetadataPublisher that keeps the
 * latest image and answers what Metadata and DescribeCluster need from it: the live brokers'
 * endpoints on the listener a request came in on, and the controller id to hand to clients.
 */
import { sortedEntries, EMPTY_IMAGE } from "../../metadata/index.js";
import type {
  BrokerRegistration,
  MetadataDelta,
  MetadataImage,
  MetadataPublisher,
} from "../../metadata/index.js";
import type { Random } from "../../ports/index.js";

/** One live broker as clients see it on one listener. */
export interface BrokerEndpoint {
  readonly brokerId: number;
  readonly host: string;
  readonly port: number;
  readonly rack: string | null;
}

/** What the cache is built from. */
export interface MetadataCacheOptions {
  /** The cluster id from meta.properties; the image does not hold it. */
  readonly clusterId: string;
  /** Picks the controller id answered to clients. */
  readonly random: Random;
}

interface ImageWaiter {
  readonly holds: (image: MetadataImage) => boolean;
  readonly resolve: () => void;
}

/** The latest metadata image and the client-facing questions answered from it. */
export class MetadataCache implements MetadataPublisher {
  readonly name = "MetadataCache";
  readonly clusterId: string;
  private current: MetadataImage = EMPTY_IMAGE;
  private readonly waiters = new Set<ImageWaiter>();

  constructor(private readonly options: MetadataCacheOptions) {
    this.clusterId = options.clusterId;
  }

  /** The latest image published to this cache (the empty image before the first). */
  get image(): MetadataImage {
    return this.current;
  }

  /** Keeps the new image; readers that hold the old one keep it unchanged. */
  onMetadataUpdate(_delta: MetadataDelta, image: MetadataImage): void {
    this.current = image;
    for (const waiter of this.waiters) {
      if (!waiter.holds(image)) continue;
      this.waiters.delete(waiter);
      waiter.resolve();
    }
  }

  /**
   * Resolves once the cache holds an image up to metadata log offset `offset` (inclusive), or
   * when `giveUp` settles first: how a broker answers an admin request it forwarded only once
   * it serves the change itself, so that a client never reads its own write as missing.
   */
  async reachOffset(offset: number, giveUp: Promise<unknown>): Promise<void> {
    await this.awaitImage((image) => image.provenance.lastContainedOffset >= offset, giveUp);
  }

  /** Resolves once the cache holds an image for which `holds` is true, or when `giveUp` settles. */
  async awaitImage(holds: (image: MetadataImage) => boolean, giveUp: Promise<unknown>) {
    if (holds(this.current)) return;
    let waiter: ImageWaiter | undefined;
    const reached = new Promise<void>((resolve) => {
      waiter = { holds, resolve };
      this.waiters.add(waiter);
    });
    await Promise.race([reached, giveUp]);
    if (waiter !== undefined) this.waiters.delete(waiter);
  }

  /**
   * The unfenced brokers that have an endpoint named `listenerName`, by broker id (Kafka's
   * getAliveBrokerNodes). A broker without that listener is left out, as Kafka leaves it out.
   */
  aliveBrokers(listenerName: string, image: MetadataImage = this.current): BrokerEndpoint[] {
    const endpoints: BrokerEndpoint[] = [];
    for (const [, broker] of sortedEntries(image.cluster.brokers)) {
      if (broker.isFenced) continue;
      const endpoint = endpointOf(broker, listenerName);
      if (endpoint !== undefined) endpoints.push(endpoint);
    }
    return endpoints;
  }

  /**
   * The controller id clients are told: in KRaft, Kafka names a random live broker, because
   * clients send controller-bound requests (CreateTopics, InitProducerId from kafkajs) to it
   * and every broker forwards them to the active controller. -1 when no broker is alive.
   */
  controllerIdForClients(image: MetadataImage = this.current): number {
    const alive: number[] = [];
    for (const [id, broker] of sortedEntries(image.cluster.brokers)) {
      if (!broker.isFenced) alive.push(id);
    }
    if (alive.length === 0) return -1;
    return alive[this.options.random.nextInt(alive.length)] ?? -1;
  }
}

/** The endpoint of `broker` on `listenerName`, or undefined when it has no such listener. */
export function endpointOf(
  broker: BrokerRegistration,
  listenerName: string,
): BrokerEndpoint | undefined {
  const listener = broker.listeners.find((candidate) => candidate.name === listenerName);
  if (listener === undefined) return undefined;
  return { brokerId: broker.id, host: listener.host, port: listener.port, rack: broker.rack };
}
