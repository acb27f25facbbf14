/**
 * Changes to one topic's partitions. Applying them sets only the changed partitions in the
 * topic's persistent partition map, so the other partitions stay shared with the old image.
 */
import type { Uuid } from "../common/index.js";
import type { PartitionChangeRecord, PartitionRecord } from "../protocol/index.js";
import type { TopicImage } from "./images.js";
import { MetadataReplayError } from "./metadata-replay-error.js";
import { mergePartitionChange, partitionFromRecord } from "./partition-registration.js";
import type { PartitionRegistration } from "./partition-registration.js";
import { applyChanges } from "./persistent-map.js";

/** Pending changes to one topic (an existing one, or one a TopicRecord just created). */
export class TopicDelta {
  private readonly changes = new Map<number, PartitionRegistration>();

  constructor(readonly image: TopicImage) {}

  get name(): string {
    return this.image.name;
  }

  get id(): Uuid {
    return this.image.id;
  }

  /** The partitions that changed or were created, by partition index, as they now stand. */
  get partitionChanges(): ReadonlyMap<number, PartitionRegistration> {
    return this.changes;
  }

  /** The partition as the changes so far leave it, or undefined when it does not exist. */
  partition(partitionIndex: number): PartitionRegistration | undefined {
    return this.changes.get(partitionIndex) ?? this.image.partitions.get(partitionIndex);
  }

  /** The indexes of partitions that did not exist in the image before this delta. */
  createdPartitions(): number[] {
    return [...this.changes.keys()].filter((index) => !this.image.partitions.has(index));
  }

  /** Replays a PartitionRecord: it states the whole partition, replacing any earlier state. */
  replayPartition(record: PartitionRecord): void {
    this.changes.set(record.partitionId, partitionFromRecord(record));
  }

  /** Replays a PartitionChangeRecord against the partition's current state. */
  replayPartitionChange(record: PartitionChangeRecord): void {
    const partition = this.partition(record.partitionId);
    if (partition === undefined) {
      throw new MetadataReplayError(
        `partition ${record.partitionId} of topic ${record.topicId} does not exist`,
      );
    }
    this.changes.set(record.partitionId, mergePartitionChange(partition, record));
  }

  apply(): TopicImage {
    if (this.changes.size === 0) return this.image;
    return { ...this.image, partitions: applyChanges(this.image.partitions, this.changes) };
  }
}
