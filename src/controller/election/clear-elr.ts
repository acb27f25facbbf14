/**
 * Clearing every ELR when eligible leader replicas are turned off, a Sluice rule: while the
 * feature is off nobody keeps the ELRs up to date, so an ELR left in place could, once the
 * feature is back, elect a replica that no longer has every committed record. Each partition
 * with an ELR or a last known ELR gets a change that empties both, in the batch that turns the
 * feature off.
 */
import type { MetadataImage } from "../../metadata/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import { emptyPartitionChange } from "./partition-change-builder.js";
import { partitionChangeMetadataRecord } from "./partition-changes.js";

/** The changes that empty every ELR and last known ELR of `image`. */
export function elrClearingRecords(image: MetadataImage): MetadataRecord[] {
  const records: MetadataRecord[] = [];
  for (const [, topic] of image.topics.byId) {
    for (const [partitionId, partition] of topic.partitions) {
      if (partition.eligibleLeaderReplicas.length === 0 && partition.lastKnownElr.length === 0) {
        continue;
      }
      const record = {
        ...emptyPartitionChange(topic.id, partitionId),
        eligibleLeaderReplicas: [],
        lastKnownElr: [],
      };
      records.push(partitionChangeMetadataRecord(image, record));
    }
  }
  return records;
}
