/**
 * Walks the partitions of an image in a fixed order (topics by id, partitions by index), so that
 * an operation over many partitions writes its records in the same order on every controller.
 * Kafka keeps indexes from broker to partitions for this; a scan of the image is linear in the
 * partition count, which a broker event at 100,000 partitions pays in milliseconds.
 */
import type { MetadataImage, PartitionRegistration, TopicImage } from "../../metadata/index.js";
import { sortedEntries } from "../../metadata/index.js";

export interface PartitionEntry {
  readonly topic: TopicImage;
  readonly partitionId: number;
  readonly partition: PartitionRegistration;
}

/** Every partition that satisfies `predicate`, topics by id, partitions by index. */
export function partitionsWhere(
  image: MetadataImage,
  predicate: (partition: PartitionRegistration) => boolean,
): PartitionEntry[] {
  const found: PartitionEntry[] = [];
  for (const [, topic] of sortedEntries(image.topics.byId)) {
    for (const [partitionId, partition] of sortedEntries(topic.partitions)) {
      if (predicate(partition)) found.push({ topic, partitionId, partition });
    }
  }
  return found;
}
