/**
 * The roles, as the metadata image gives them now, of the replicas of a log dir that is back
 * online after its disk was full: the broker hosts them again as leaders or followers at once,
 * as it would on the metadata change that made them so (the changes that came while the dir was
 * offline found no log to apply to). Pure.
 */
import type { BrokerId } from "../common/index.js";
import type { LocalPartition, MetadataImage } from "../metadata/index.js";
import type { TopicPartition } from "../storage/index.js";

/** The replicas among `partitions` that `brokerId` leads and those it follows, per `image`. */
export function recoveredRoles(
  image: MetadataImage,
  partitions: readonly TopicPartition[],
  brokerId: BrokerId,
): { readonly leaders: LocalPartition[]; readonly followers: LocalPartition[] } {
  const leaders: LocalPartition[] = [];
  const followers: LocalPartition[] = [];
  for (const { topic, partition: partitionIndex } of partitions) {
    const topicImage = image.topics.byName.get(topic);
    const partition = topicImage?.partitions.get(partitionIndex);
    if (topicImage === undefined || partition === undefined) continue;
    if (!partition.replicas.includes(brokerId)) continue;
    const local = { topicName: topic, topicId: topicImage.id, partitionIndex, partition };
    (partition.leader === brokerId ? leaders : followers).push(local);
  }
  return { leaders, followers };
}
