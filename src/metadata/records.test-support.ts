/**
 * Builders of metadata records for tests. Each goes through the real codec (encode, then
 * decode), so a test record has every field with Kafka's defaults, exactly as the loader sees it.
 */
import {
  decodeMetadataRecord,
  encodeMetadataRecord,
  MetadataRecordType,
} from "../protocol/index.js";
import type { MetadataRecord, MetadataRecordInput } from "../protocol/index.js";
import { metadataRecordSchema } from "../protocol/index.js";

const T = MetadataRecordType;

/** A Uuid in Sluice's form whose last digits are `n`, for readable test ids. */
export function testUuid(n: number): string {
  return n.toString(16).padStart(32, "0").replace(/^0/, "a");
}

/** Encodes a record input at the type's newest version. */
export function encodeLatest(input: Omit<MetadataRecordInput, "version">): Uint8Array {
  const schema = metadataRecordSchema(input.type);
  if (schema === undefined) throw new RangeError(`no metadata record type ${input.type}`);
  return encodeMetadataRecord({
    ...input,
    version: schema.validVersions[1],
  } as MetadataRecordInput);
}

/** A record input made whole by a round trip through the codec. */
export function full(input: Omit<MetadataRecordInput, "version">): MetadataRecord {
  return decodeMetadataRecord(encodeLatest(input));
}

export const topicRecord = (name: string, topicId: string): MetadataRecord =>
  full({ type: T.TopicRecord, data: { name, topicId } });

/** PartitionRecord with the leader first in `replicas`, all in the ISR, epochs 0. */
export function partitionRecord(
  topicId: string,
  partitionId: number,
  replicas: number[],
  extra: Record<string, unknown> = {},
): MetadataRecord {
  const data = { topicId, partitionId, replicas, isr: replicas, leader: replicas[0] ?? -1 };
  return full({
    type: T.PartitionRecord,
    data: { leaderEpoch: 0, partitionEpoch: 0, ...data, ...extra },
  });
}

/** PartitionChangeRecord with the given changes; absent fields mean no change. */
export function partitionChange(
  topicId: string,
  partitionId: number,
  changes: Record<string, unknown>,
): MetadataRecord {
  return full({ type: T.PartitionChangeRecord, data: { topicId, partitionId, ...changes } });
}

/** RegisterBrokerRecord of a fenced broker with one PLAINTEXT listener. */
export function registerBroker(
  brokerId: number,
  brokerEpoch: number,
  extra: Record<string, unknown> = {},
): MetadataRecord {
  const endPoints = [
    { name: "PLAINTEXT", host: "localhost", port: 9000 + brokerId, securityProtocol: 0 },
  ];
  return full({
    type: T.RegisterBrokerRecord,
    data: {
      brokerId,
      brokerEpoch,
      incarnationId: testUuid(brokerId * 1000 + brokerEpoch),
      endPoints,
      rack: null,
      ...extra,
    },
  });
}

export const fenceBroker = (id: number, epoch: number): MetadataRecord =>
  full({ type: T.FenceBrokerRecord, data: { id, epoch } });

export const unfenceBroker = (id: number, epoch: number): MetadataRecord =>
  full({ type: T.UnfenceBrokerRecord, data: { id, epoch } });

/** ConfigRecord; a null value deletes the key. */
export const configRecord = (
  resourceType: number,
  resourceName: string,
  name: string,
  value: string | null,
): MetadataRecord =>
  full({ type: T.ConfigRecord, data: { resourceType, resourceName, name, value } });

export const removeTopic = (topicId: string): MetadataRecord =>
  full({ type: T.RemoveTopicRecord, data: { topicId } });

export const featureLevel = (name: string, level: number): MetadataRecord =>
  full({ type: T.FeatureLevelRecord, data: { name, featureLevel: level } });
