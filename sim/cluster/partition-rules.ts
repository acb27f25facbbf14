/**
 * The partition rules the cluster checker holds every committed record to, written from Kafka's
 * rules rather than from the controller's code: a new leader is an ISR or ELR member unless the
 * topic allows unclean election (and then the change says RECOVERING, KIP-704); leader and
 * partition epochs never go down; and no committed image has a fenced broker as leader (Kafka's
 * controller elects only unfenced brokers and moves leadership off a broker when it fences it,
 * in the same batch).
 */
import type { BrokerId, Uuid } from "../../src/common/index.js";
import {
  ConfigResourceType,
  NO_LEADER,
  configResourceKey,
  type MetadataImage,
  type PartitionRegistration,
} from "../../src/metadata/index.js";
import { MetadataRecordType, decodeMetadataRecord } from "../../src/protocol/index.js";

/** What one record did, as far as the rules go. */
export type RecordOutcome =
  | { readonly kind: "ok" }
  | { readonly kind: "leaderChange"; readonly isUnclean: boolean }
  | { readonly kind: "violation"; readonly invariant: string; readonly detail: string };

const OK: RecordOutcome = { kind: "ok" };

function partitionOf(
  image: MetadataImage,
  topicId: string,
  partitionIndex: number,
): { readonly topicName: string; readonly partition: PartitionRegistration } | undefined {
  const topic = image.topics.byId.get(topicId as Uuid);
  const partition = topic?.partitions.get(partitionIndex);
  if (topic === undefined || partition === undefined) return undefined;
  return { topicName: topic.name, partition };
}

/** Whether the topic's config allows unclean election (the cluster default is Kafka's false). */
function allowsUncleanElection(image: MetadataImage, topicName: string): boolean {
  const key = configResourceKey({ type: ConfigResourceType.TOPIC, name: topicName });
  return image.configs.resources.get(key)?.values.get("unclean.leader.election.enable") === "true";
}

function violation(invariant: string, detail: string): RecordOutcome {
  return { kind: "violation", invariant, detail };
}

/**
 * Checks one committed record: `before` is the image before it, `after` the image with it. Only
 * PartitionRecord and PartitionChangeRecord move leaders and epochs.
 */
export function checkRecord(
  bytes: Uint8Array,
  before: MetadataImage,
  after: MetadataImage,
): RecordOutcome {
  const record = decodeMetadataRecord(bytes);
  if (
    record.type !== MetadataRecordType.PartitionRecord &&
    record.type !== MetadataRecordType.PartitionChangeRecord
  ) {
    return OK;
  }
  const { topicId, partitionId } = record.data;
  const previous = partitionOf(before, topicId, partitionId);
  const next = partitionOf(after, topicId, partitionId);
  const where = `partition ${topicId}-${partitionId}`;
  if (next === undefined) return violation("a partition change names a partition", where);
  if (previous === undefined) {
    const { leader, isr } = next.partition;
    if (leader !== NO_LEADER && !isr.includes(leader)) {
      return violation("a new partition's leader is in its ISR", `${where}: ${leader} ∉ ${isr}`);
    }
    return OK;
  }
  return checkChange(where, previous.partition, next.partition, () =>
    allowsUncleanElection(before, next.topicName),
  );
}

function checkChange(
  where: string,
  previous: PartitionRegistration,
  next: PartitionRegistration,
  isUncleanAllowed: () => boolean,
): RecordOutcome {
  if (next.leaderEpoch < previous.leaderEpoch) {
    return violation(
      "leader epochs never decrease",
      `${where}: ${previous.leaderEpoch} → ${next.leaderEpoch}`,
    );
  }
  if (next.partitionEpoch < previous.partitionEpoch) {
    return violation(
      "partition epochs never decrease",
      `${where}: ${previous.partitionEpoch} → ${next.partitionEpoch}`,
    );
  }
  if (next.leader === previous.leader || next.leader === NO_LEADER) return OK;
  const eligible: readonly BrokerId[] = [...previous.isr, ...previous.eligibleLeaderReplicas];
  if (eligible.includes(next.leader)) return { kind: "leaderChange", isUnclean: false };
  const detail =
    `${where}: leader ${next.leader} is not in the ISR ${JSON.stringify(previous.isr)} ` +
    `or ELR ${JSON.stringify(previous.eligibleLeaderReplicas)}`;
  // KIP-966's balanced recovery: with the ISR and ELR empty, the single last known leader may lead
  // again once it is back, as Kafka's controller elects it; it may lack records, like an unclean
  // election, and is counted as one.
  const isLastKnownLeader =
    previous.isr.length === 0 &&
    previous.eligibleLeaderReplicas.length === 0 &&
    previous.lastKnownElr.length === 1 &&
    previous.lastKnownElr[0] === next.leader;
  if (!isUncleanAllowed() && !isLastKnownLeader) {
    return violation("a new leader comes from the ISR or ELR", detail);
  }
  if (next.leaderRecoveryState !== "recovering") {
    return violation("an unclean election marks the leader RECOVERING", detail);
  }
  return { kind: "leaderChange", isUnclean: true };
}

/** The first partition of `image` led by a fenced or unknown broker, described; or undefined. */
export function checkFencedLeaders(image: MetadataImage): string | undefined {
  for (const topic of image.topics.byName.values()) {
    for (const [partitionIndex, partition] of topic.partitions.entries()) {
      if (partition.leader === NO_LEADER) continue;
      const broker = image.cluster.brokers.get(partition.leader);
      if (broker === undefined || broker.isFenced) {
        const state = broker === undefined ? "unregistered" : "fenced";
        return `${topic.name}-${partitionIndex} is led by ${state} broker ${partition.leader}`;
      }
    }
  }
  return undefined;
}
