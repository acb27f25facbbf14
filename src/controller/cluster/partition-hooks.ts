/**
 * The membership controls decide when a broker is fenced, shuts down, comes back or loses log
 * dirs; which partitions then change leader or ISR is the election code's decision. These hooks
 * are how the two meet without importing each other: the driver passes the election functions
 * (src/controller/election) in.
 */
import type { BrokerId, Uuid } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { MetadataRecord } from "../../protocol/index.js";

/**
 * Partition changes for broker events. Each function receives the image as it stands BEFORE the
 * membership record of the same batch (so the broker still looks unfenced or still has the dirs)
 * and must treat `brokerId` as no longer eligible to lead (or, for dirs, its replicas on those
 * dirs as offline). Each returns PartitionChangeRecords only.
 */
export interface PartitionHooks {
  /** The broker is being fenced (silent, or asked to be): it leaves leaderships and ISRs. */
  readonly brokerFenced: (image: MetadataImage, brokerId: BrokerId) => MetadataRecord[];
  /** The broker entered controlled shutdown: move its leaderships away and drop it from ISRs. */
  readonly brokerShuttingDown: (image: MetadataImage, brokerId: BrokerId) => MetadataRecord[];
  /**
   * A new incarnation of the broker registers, so its last run may have ended in a crash that
   * lost unflushed records (KIP-966): with eligible leader replicas on, it leaves every ISR and
   * ELR and may not lead; without them, nothing changes.
   */
  readonly brokerUncleanShutdown: (image: MetadataImage, brokerId: BrokerId) => MetadataRecord[];
  /** The broker was unfenced: elect it where partitions have no leader and it is eligible. */
  readonly brokerUnfenced: (image: MetadataImage, brokerId: BrokerId) => MetadataRecord[];
  /** Some of the broker's log dirs went offline: its replicas there leave ISRs and leaderships. */
  readonly logDirsOffline: (
    image: MetadataImage,
    brokerId: BrokerId,
    directories: readonly Uuid[],
  ) => MetadataRecord[];
}
