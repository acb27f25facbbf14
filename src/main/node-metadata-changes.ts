/**
 * Feeds the dashboard's stream of metadata changes: a Raft listener, registered after the
 * node's loader so that the image is already published when a change is announced, that hands
 * each committed batch and loaded snapshot to the `MetadataChangeFeed`, and the summarizer the
 * feed calls to name each record (Kafka's record type names, and what it touches: topics by
 * name where the node's image still knows the id, brokers by id; config values are left out,
 * they may be secrets).
 */
import { uuidToBase64, type Uuid } from "../common/index.js";
import { MetadataChangeFeed, type MetadataRecordSummary } from "../http/index.js";
import {
  DecodeError,
  decodeMetadataRecord,
  metadataRecordSchema,
  MetadataRecordType as Type,
  type MetadataRecord,
} from "../protocol/index.js";
import type { RaftListener } from "../raft/index.js";

/** Changes a page that opens gets at once. */
const HISTORY_MAX = 50;
/** Records named per change; a snapshot's thousands are counted, not listed. */
const RECORDS_PER_CHANGE_MAX = 20;

/** Gives the name of a topic id (Kafka's hex form) the node's image knows, else undefined. */
export type TopicNames = (topicId: Uuid) => string | undefined;

const noNames: TopicNames = () => undefined;

export function newMetadataChangeFeed(topicNames: TopicNames): MetadataChangeFeed {
  return new MetadataChangeFeed({
    summarize: (value) => summarizeMetadataRecord(value, topicNames),
    historyMax: HISTORY_MAX,
    recordsPerChangeMax: RECORDS_PER_CHANGE_MAX,
  });
}

export function metadataChangeListener(feed: MetadataChangeFeed): RaftListener {
  return {
    handleCommit: (batch) => feed.publish({ kind: "batch", ...batch }),
    handleLoadSnapshot: (snapshot) =>
      feed.publish({
        kind: "snapshot",
        baseOffset: 0,
        lastOffset: snapshot.snapshotId.endOffset - 1,
        epoch: snapshot.snapshotId.epoch,
        records: snapshot.records,
      }),
  };
}

/** One record value as the page names it. */
export function summarizeMetadataRecord(
  value: Uint8Array,
  topicNames: TopicNames = noNames,
): MetadataRecordSummary {
  let record: MetadataRecord;
  try {
    record = decodeMetadataRecord(value);
  } catch (cause) {
    if (!(cause instanceof DecodeError)) throw cause;
    return { type: "undecodable record", summary: cause.message };
  }
  const type = metadataRecordSchema(record.type)?.name ?? `record type ${record.type}`;
  const topicOf = (id: string): string => topicNames(id as Uuid) ?? uuidToBase64(id as Uuid);
  return { type, summary: summaryOf(record, topicOf) };
}

const list = (ids: readonly number[] | null): string => (ids === null ? "-" : ids.join(","));

function summaryOf(record: MetadataRecord, topicOf: (id: string) => string): string {
  switch (record.type) {
    case Type.TopicRecord:
      return `topic ${record.data.name} (${uuidToBase64(record.data.topicId as Uuid)})`;
    case Type.RemoveTopicRecord:
      return `topic ${topicOf(record.data.topicId)}`;
    case Type.PartitionRecord: {
      const { topicId, partitionId, leader, replicas, isr } = record.data;
      const where = `${topicOf(topicId)}-${partitionId}`;
      return `${where} leader ${leader}, replicas ${list(replicas)}, isr ${list(isr)}`;
    }
    case Type.PartitionChangeRecord: {
      const { topicId, partitionId, leader, isr } = record.data;
      // leader -2 means unchanged (Kafka's NO_LEADER_CHANGE), a null isr too.
      const leaderText = leader === -2 ? "" : ` leader ${leader}`;
      const isrText = isr === null ? "" : ` isr ${list(isr)}`;
      return `${topicOf(topicId)}-${partitionId}${leaderText}${isrText}`;
    }
    case Type.RegisterBrokerRecord:
      return `broker ${record.data.brokerId} epoch ${record.data.brokerEpoch}`;
    case Type.UnregisterBrokerRecord:
      return `broker ${record.data.brokerId}`;
    case Type.FenceBrokerRecord:
      return `broker ${record.data.id} fenced`;
    case Type.UnfenceBrokerRecord:
      return `broker ${record.data.id} unfenced`;
    case Type.BrokerRegistrationChangeRecord:
      return brokerChangeOf(record.data);
    case Type.ConfigRecord:
      return `${record.data.resourceName || "default"}: ${record.data.name}`;
    case Type.FeatureLevelRecord:
      return `${record.data.name} = ${record.data.featureLevel}`;
    default:
      return "";
  }
}

/** Kafka's BrokerRegistrationFencingChange and InControlledShutdownChange values. */
function brokerChangeOf(data: {
  readonly brokerId: number;
  readonly fenced: number;
  readonly inControlledShutdown: number;
}): string {
  const parts = [`broker ${data.brokerId}`];
  if (data.fenced === 1) parts.push("fenced");
  if (data.fenced === -1) parts.push("unfenced");
  if (data.inControlledShutdown === 1) parts.push("in controlled shutdown");
  return parts.join(" ");
}
