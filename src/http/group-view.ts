/**
 * The consumer groups the dashboard shows: those this node's group coordinator owns (it leads
 * their `__consumer_offsets` partition), each with its committed offsets and lag. A group's
 * coordinator is one broker, so each broker's dashboard lists its own groups; the page says so.
 * Lag is the partition's high watermark minus the committed offset, known only where this node
 * hosts a replica of the partition (as the consumer-lag metrics do); elsewhere it is null.
 */

export interface GroupOffsetView {
  readonly topic: string;
  readonly partition: number;
  readonly committedOffset: number;
  readonly highWatermark: number | undefined;
}

export interface GroupView {
  readonly groupId: string;
  /** "classic" or "consumer" (KIP-848). */
  readonly groupType: string;
  readonly state: string;
  readonly offsets: readonly GroupOffsetView[];
}

const byText = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);

/** The groups as JSON: sorted by id, offsets by topic and partition, each with its lag. */
export function groupsJson(groups: readonly GroupView[]): unknown {
  return [...groups]
    .sort((left, right) => byText(left.groupId, right.groupId))
    .map((group) => {
      const offsets = [...group.offsets]
        .sort((left, right) => byText(left.topic, right.topic) || left.partition - right.partition)
        .map((entry) => ({
          topic: entry.topic,
          partition: entry.partition,
          committedOffset: entry.committedOffset,
          highWatermark: entry.highWatermark ?? null,
          lag:
            entry.highWatermark === undefined
              ? null
              : Math.max(0, entry.highWatermark - entry.committedOffset),
        }));
      const known = offsets.filter((entry) => entry.lag !== null);
      return {
        groupId: group.groupId,
        groupType: group.groupType,
        state: group.state,
        totalLag: known.length === 0 ? null : known.reduce((sum, each) => sum + (each.lag ?? 0), 0),
        offsets,
      };
    });
}
