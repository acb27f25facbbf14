/**
 * The partition changes that follow a broker event, as Kafka's ReplicationControlManager makes
 * them (generateLeaderAndIsrUpdates): each affected partition gets at most one
 * PartitionChangeRecord that takes the broker out of the ISR and elects a leader where it is
 * needed, unclean only where the topic allows it. Without ELR the last ISR member stays in the
 * ISR, leaderless; with ELR the ISR may become empty and the ELR keeps who may lead next.
 *
 * Each function reads the image as it stands before the event's own registration record (fence,
 * unfence, controlled shutdown, log dirs), which the caller writes in the same atomic batch, and
 * returns PartitionChangeRecords only.
 */
import type { BrokerId, Uuid } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { NO_LEADER } from "../../metadata/index.js";
import type { PartitionChangeRequest, PartitionChanges } from "./partition-changes.js";
import { addPartitionChange, changePartition, noPartitionChanges } from "./partition-changes.js";
import type { PartitionEntry } from "./partition-scan.js";
import { partitionsWhere } from "./partition-scan.js";
import { replicaDirectory } from "./replica-state.js";
import { withoutReplicas } from "./replica-lists.js";
import { DEFAULT_REPLICATION_DEFAULTS, isElrEnabled } from "./topic-settings.js";
import type { ReplicationDefaults } from "./topic-settings.js";

/** Why a broker's partitions move away from it. */
export type MoveAwayReason = "fenced" | "controlledShutdown" | "unregistered";

function changeAll(
  image: MetadataImage,
  defaults: ReplicationDefaults,
  entries: readonly PartitionEntry[],
  request: (entry: PartitionEntry) => PartitionChangeRequest,
): PartitionChanges {
  const changes = noPartitionChanges();
  for (const entry of entries) {
    const { topic, partitionId } = entry;
    const result = changePartition({
      image,
      defaults,
      topic,
      partitionId,
      request: request(entry),
    });
    if (result !== undefined) addPartitionChange(image, changes, result);
  }
  return changes;
}

/** The change of a partition that `brokerId` leaves: out of the ISR, and of the lead if it led. */
function leavingRequest(
  brokerId: BrokerId,
  trigger: string,
): (entry: PartitionEntry) => PartitionChangeRequest {
  return ({ partition }) => ({
    trigger,
    overrides: { leaving: brokerId },
    targetIsr: withoutReplicas(partition.isr, [brokerId]),
  });
}

/**
 * Takes `brokerId` out of every ISR it is in and elects new leaders where it led. Used for
 * fencing, controlled shutdown (the membership code calls it under this name) and
 * unregistration, which also revisits partitions that hold the broker only in their ELR.
 */
export function movePartitionsAwayFrom(
  image: MetadataImage,
  brokerId: BrokerId,
  reason: MoveAwayReason,
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionChanges {
  const isAffected = (entry: {
    isr: readonly BrokerId[];
    eligibleLeaderReplicas: readonly BrokerId[];
  }) =>
    entry.isr.includes(brokerId) ||
    (reason === "unregistered" && entry.eligibleLeaderReplicas.includes(brokerId));
  const entries = partitionsWhere(image, isAffected);
  return changeAll(
    image,
    defaults,
    entries,
    leavingRequest(brokerId, `broker ${brokerId} ${reason}`),
  );
}

/** A handler of one broker event that moves partitions away from the broker for `reason`. */
function moveAwayHandler(
  reason: MoveAwayReason,
): (image: MetadataImage, brokerId: BrokerId, defaults?: ReplicationDefaults) => PartitionChanges {
  return (image, brokerId, defaults = DEFAULT_REPLICATION_DEFAULTS) =>
    movePartitionsAwayFrom(image, brokerId, reason, defaults);
}

/** The partition changes when `brokerId` is fenced. */
export const handleBrokerFenced = moveAwayHandler("fenced");

/** The partition changes when `brokerId` enters controlled shutdown. */
export const handleBrokerShutdown = moveAwayHandler("controlledShutdown");

/** The partition changes when `brokerId` is unregistered. */
export const handleBrokerUnregistered = moveAwayHandler("unregistered");

/**
 * The partition changes when `brokerId` is unfenced: every leaderless partition elects again,
 * with the broker eligible although the image still shows it fenced.
 */
export function handleBrokerUnfenced(
  image: MetadataImage,
  brokerId: BrokerId,
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionChanges {
  const entries = partitionsWhere(image, (partition) => partition.leader === NO_LEADER);
  return changeAll(image, defaults, entries, () => ({
    trigger: `broker ${brokerId} unfenced`,
    overrides: { joining: brokerId },
  }));
}

/**
 * The partition changes when `brokerId` comes back after an unclean shutdown (KIP-966): it may
 * have lost unflushed records, so it leaves every ISR and ELR. Nothing to do without ELR.
 */
export function handleBrokerUncleanShutdown(
  image: MetadataImage,
  brokerId: BrokerId,
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionChanges {
  if (!isElrEnabled(image)) return noPartitionChanges();
  const entries = partitionsWhere(
    image,
    (partition) =>
      partition.isr.includes(brokerId) || partition.eligibleLeaderReplicas.includes(brokerId),
  );
  return changeAll(image, defaults, entries, ({ partition }) => ({
    trigger: `broker ${brokerId} restarted after an unclean shutdown`,
    overrides: { uncleanShutdown: brokerId },
    uncleanShutdownReplicas: [brokerId],
    targetIsr: withoutReplicas(partition.isr, [brokerId]),
  }));
}

/**
 * The partition changes when log dirs of `brokerId` go offline: each partition whose replica on
 * the broker lives in a dir that was online and now is not leaves that replica out of its ISR
 * and leadership. Dirs the broker had not reported online change nothing.
 */
export function handleOfflineLogDirs(
  image: MetadataImage,
  brokerId: BrokerId,
  directories: readonly Uuid[],
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionChanges {
  const registration = image.cluster.brokers.get(brokerId);
  if (registration === undefined) return noPartitionChanges();
  const newlyOffline = registration.directories.filter((directory) =>
    directories.includes(directory),
  );
  if (newlyOffline.length === 0) return noPartitionChanges();
  const entries = partitionsWhere(
    image,
    (partition) =>
      partition.replicas.includes(brokerId) &&
      newlyOffline.includes(replicaDirectory(partition, brokerId)),
  );
  const trigger = `log dirs of broker ${brokerId} offline`;
  return changeAll(image, defaults, entries, leavingRequest(brokerId, trigger));
}
