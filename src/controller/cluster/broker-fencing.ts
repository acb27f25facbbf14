/**
 * The liveness scan: the driver runs it on its own tick, and every unfenced broker that has not
 * been heard from within `broker.session.timeout.ms` is fenced, so a silent broker is fenced at
 * most one tick after its session ends. Its leaderships and ISR places move first (through the
 * partition hooks), then a BrokerRegistrationChangeRecord fences it, as Kafka's
 * handleBrokerFenced orders them.
 */
import type { BrokerId } from "../../common/index.js";
import { MetadataDelta } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import type { BrokerHeartbeats } from "./broker-heartbeats.js";
import { registrationChangeRecord } from "./cluster-records.js";
import type { PartitionHooks } from "./partition-hooks.js";

/** The records that fence stale brokers, and which brokers they fence (in id order). */
export interface FencingResult {
  readonly records: readonly MetadataRecord[];
  readonly fencedBrokerIds: readonly BrokerId[];
}

export interface FencingScan {
  readonly image: MetadataImage;
  readonly heartbeats: BrokerHeartbeats;
  readonly nowMs: number;
  readonly sessionTimeoutMs: number;
  readonly hooks: PartitionHooks;
}

/**
 * Fences every unfenced broker whose session has ended at `nowMs`. Each broker's partition moves
 * are computed on the image with the earlier brokers of the same scan already fenced, so no
 * partition is handed to a broker that is being fenced alongside.
 */
export function fenceStaleBrokers(scan: FencingScan): FencingResult {
  const stale = [...scan.image.cluster.brokers.values()]
    .filter((broker) => !broker.isFenced)
    .filter(
      (broker) => !scan.heartbeats.hasLiveSession(broker.id, scan.nowMs, scan.sessionTimeoutMs),
    )
    .map((broker) => broker.id)
    .sort((a, b) => a - b);
  const records: MetadataRecord[] = [];
  let image = scan.image;
  for (const brokerId of stale) {
    const broker = image.cluster.brokers.get(brokerId);
    if (broker === undefined) continue;
    const fencing = [
      ...scan.hooks.brokerFenced(image, brokerId),
      registrationChangeRecord(image, broker, { fence: "fence" }),
    ];
    records.push(...fencing);
    image = imageAfter(image, fencing);
  }
  return { records, fencedBrokerIds: stale };
}

/** The image with `records` replayed, for decisions later in the same batch. */
export function imageAfter(
  image: MetadataImage,
  records: readonly MetadataRecord[],
): MetadataImage {
  if (records.length === 0) return image;
  const delta = new MetadataDelta(image);
  delta.replayAll(records);
  return delta.apply(image.provenance);
}
