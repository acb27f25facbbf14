/**
 * Changes to the topics image, with Kafka's TopicsDelta semantics: a TopicRecord creates a topic
 * with no partitions, PartitionRecord and PartitionChangeRecord must name a topic that exists,
 * and RemoveTopicRecord deletes the topic with all its partitions.
 */
import type { Uuid } from "../common/index.js";
import type {
  PartitionChangeRecord,
  PartitionRecord,
  RemoveTopicRecord,
  TopicRecord,
} from "../protocol/index.js";
import type { TopicImage, TopicsImage } from "./images.js";
import { MetadataReplayError } from "./metadata-replay-error.js";
import { emptyMap } from "./persistent-map.js";
import { TopicDelta } from "./topic-delta.js";

export class TopicsDelta {
  private readonly changes = new Map<Uuid, TopicDelta>();
  private readonly created = new Set<Uuid>();
  private readonly deleted = new Set<Uuid>();

  constructor(readonly image: TopicsImage) {}

  /** Topics created or changed by this delta, by id. */
  get changedTopics(): ReadonlyMap<Uuid, TopicDelta> {
    return this.changes;
  }

  /** Ids of topics a TopicRecord created in this delta (and that were not removed again). */
  get createdTopicIds(): ReadonlySet<Uuid> {
    return this.created;
  }

  /** Ids of topics of the base image that this delta removes. */
  get deletedTopicIds(): ReadonlySet<Uuid> {
    return this.deleted;
  }

  /** The topic as the changes so far leave it, or undefined when it does not exist. */
  topic(topicId: Uuid): TopicImage | undefined {
    const delta = this.changes.get(topicId);
    if (delta !== undefined) return delta.apply();
    return this.deleted.has(topicId) ? undefined : this.image.byId.get(topicId);
  }

  /** True when this delta removes the base image's topic of that name. */
  topicWasDeleted(topicName: string): boolean {
    const topic = this.image.byName.get(topicName);
    return topic !== undefined && this.deleted.has(topic.id);
  }

  /** Replays a TopicRecord: a new topic without partitions. */
  replayTopic(record: TopicRecord): void {
    const id = record.topicId as Uuid;
    this.changes.set(id, new TopicDelta({ name: record.name, id, partitions: emptyMap() }));
    this.created.add(id);
  }

  replayPartition(record: PartitionRecord): void {
    this.topicDelta(record.topicId as Uuid).replayPartition(record);
  }

  replayPartitionChange(record: PartitionChangeRecord): void {
    this.topicDelta(record.topicId as Uuid).replayPartitionChange(record);
  }

  /** Replays a RemoveTopicRecord; returns the removed topic's name (its configs go too). */
  replayRemoveTopic(record: RemoveTopicRecord): string {
    const id = record.topicId as Uuid;
    const name =
      this.changes.get(id)?.name ??
      (this.deleted.has(id) ? undefined : this.image.byId.get(id)?.name);
    if (name === undefined)
      throw new MetadataReplayError(`cannot remove topic ${id}: it does not exist`);
    this.changes.delete(id);
    this.created.delete(id);
    if (this.image.byId.has(id)) this.deleted.add(id);
    return name;
  }

  /** After a snapshot: topics of the base image that it did not state are deleted. */
  finishSnapshot(): void {
    for (const id of this.image.byId.keys()) {
      if (!this.changes.has(id)) this.deleted.add(id);
    }
  }

  /** The topics image with the changes applied: deletions first, then creations and changes. */
  apply(): TopicsImage {
    if (this.changes.size === 0 && this.deleted.size === 0) return this.image;
    const byId = this.image.byId.asMutable();
    const byName = this.image.byName.asMutable();
    for (const id of this.deleted) {
      const topic = this.image.byId.get(id);
      if (topic === undefined) continue;
      byId.delete(id);
      byName.delete(topic.name);
    }
    for (const [id, delta] of this.changes) {
      const topic = delta.apply();
      byId.set(id, topic);
      byName.set(topic.name, topic);
    }
    return { byId: byId.asImmutable(), byName: byName.asImmutable() };
  }

  private topicDelta(topicId: Uuid): TopicDelta {
    const existing = this.changes.get(topicId);
    if (existing !== undefined) return existing;
    const topic = this.deleted.has(topicId) ? undefined : this.image.byId.get(topicId);
    if (topic === undefined) throw new MetadataReplayError(`topic id ${topicId} does not exist`);
    const delta = new TopicDelta(topic);
    this.changes.set(topicId, delta);
    return delta;
  }
}
