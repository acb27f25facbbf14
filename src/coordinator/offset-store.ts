/**
 * Committed offsets of every group this coordinator loads (Kafka's OffsetMetadataManager, the
 * in-memory side): the latest commit per group, topic and partition. Changes come only from
 * replaying records of `__consumer_offsets` (a commit's own, once durable, or the log at load),
 * so the map always equals what the log says.
 */

/** One committed offset (OffsetCommitValue). */
export interface CommittedOffset {
  readonly offset: number;
  /** The leader epoch of the record the offset follows, or -1. */
  readonly leaderEpoch: number;
  readonly metadata: string;
  readonly commitTimestampMs: number;
  /** v1 records only: when the commit expires, or -1. */
  readonly expireTimestampMs: number;
}

/** A group, topic and partition: the key of an OffsetCommit record. */
export interface OffsetKey {
  readonly groupId: string;
  readonly topic: string;
  readonly partition: number;
}

/** The reading side of the store, for those that must not change it. */
export type OffsetView = Pick<OffsetStore, "get" | "hasOffsets" | "offsetsOf">;

export class OffsetStore {
  private readonly byGroup = new Map<string, Map<string, Map<number, CommittedOffset>>>();

  /** Applies one OffsetCommit record: a value sets the offset, a tombstone removes it. */
  replay(key: OffsetKey, value: CommittedOffset | null): void {
    const topics = this.byGroup.get(key.groupId);
    if (value === null) {
      const partitions = topics?.get(key.topic);
      partitions?.delete(key.partition);
      if (partitions?.size === 0) topics?.delete(key.topic);
      if (topics?.size === 0) this.byGroup.delete(key.groupId);
      return;
    }
    const groupTopics = topics ?? new Map<string, Map<number, CommittedOffset>>();
    this.byGroup.set(key.groupId, groupTopics);
    const partitions = groupTopics.get(key.topic) ?? new Map<number, CommittedOffset>();
    groupTopics.set(key.topic, partitions);
    partitions.set(key.partition, value);
  }

  get(key: OffsetKey): CommittedOffset | undefined {
    return this.byGroup.get(key.groupId)?.get(key.topic)?.get(key.partition);
  }

  hasOffsets(groupId: string): boolean {
    return this.byGroup.has(groupId);
  }

  /** Every committed offset of `groupId`, by topic (in commit order of first appearance). */
  offsetsOf(groupId: string): { topic: string; partition: number; committed: CommittedOffset }[] {
    const topics = this.byGroup.get(groupId);
    if (topics === undefined) return [];
    const all = [];
    for (const [topic, partitions] of topics) {
      for (const [partition, committed] of partitions) all.push({ topic, partition, committed });
    }
    return all;
  }

  /** Forgets every group whose id `belongs` says is no longer ours (a partition unloaded). */
  unload(belongs: (groupId: string) => boolean): void {
    for (const groupId of [...this.byGroup.keys()]) {
      if (belongs(groupId)) this.byGroup.delete(groupId);
    }
  }
}
