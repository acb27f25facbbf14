/**
 * The broker's requests to the active controller beside its membership: the admin forwarder,
 * whose answers wait until this broker serves the change, and the producer id blocks for
 * InitProducerId.
 */
import {
  ControllerForwarder,
  ControllerProducerIdSource,
  type BrokerEpochSource,
  type ControllerChannel,
  type MetadataCache,
} from "../broker/index.js";
import { ProducerIdManager } from "../coordinator/index.js";
import type { NodePorts } from "./node-types.js";

/** Kafka's default `request.timeout.ms` for requests a broker sends to the controller. */
export const CONTROLLER_REQUEST_TIMEOUT_MS = 30_000;

/** The longest a forwarded admin answer waits for this broker to apply the change. */
const LOCAL_METADATA_WAIT_MAX_MS = 5000;

/** The admin forwarder, whose answers wait until this broker serves the change they made. */
export function forwarderOf(
  ports: NodePorts,
  channel: ControllerChannel,
  parts: {
    readonly metadataCache: MetadataCache;
    readonly context: { readonly raftHighWatermark: () => number | undefined };
  },
): ControllerForwarder {
  const { metadataCache, context } = parts;
  return new ControllerForwarder(channel, {
    requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS,
    // The controller answered after committing: the metadata log's high watermark now covers
    // the change, and the answer waits until this broker serves it (bounded, never forever).
    awaitLocalMetadata: async (shows) => {
      const highWatermark = context.raftHighWatermark();
      let timer: { cancel(): void } | undefined;
      const giveUp = new Promise<void>((resolve) => {
        timer = ports.timers.schedule(LOCAL_METADATA_WAIT_MAX_MS, resolve);
      });
      if (highWatermark !== undefined) await metadataCache.reachOffset(highWatermark - 1, giveUp);
      if (shows !== undefined) await metadataCache.awaitImage(shows, giveUp);
      timer?.cancel();
    },
  });
}

/** The producer id manager, taking its blocks from the active controller. */
export function createProducerIds(
  ports: NodePorts,
  channel: ControllerChannel,
  broker: BrokerEpochSource,
): ProducerIdManager {
  const source = new ControllerProducerIdSource(channel, broker, {
    requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS,
  });
  const logger = ports.logger.child({ component: "producer-ids" });
  return new ProducerIdManager(source, { clock: ports.clock, logger });
}
