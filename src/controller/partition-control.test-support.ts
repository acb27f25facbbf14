/**
 * Builders shared by the tests of the election, ISR and reassignment controls: metadata records
 * made whole by a round trip through the codec, images built by replaying them through
 * MetadataDelta, and the replay of an operation's output records onto its image.
 */
import type { BrokerId, Uuid } from "../common/index.js";
import { EMPTY_IMAGE, MetadataDelta } from "../metadata/index.js";
import type { MetadataImage, PartitionRegistration } from "../metadata/index.js";
import {
  MetadataRecordType,
  decodeMetadataRecord,
  encodeMetadataRecord,
  metadataRecordSchema,
} from "../protocol/index.js";
import type { MetadataRecord, MetadataRecordInput } from "../protocol/index.js";

const T = MetadataRecordType;

/** A readable test Uuid ending in `n` (never a reserved directory id). */
export function uuid(n: number): Uuid {
  return `a${n.toString(16).padStart(31, "0")}` as Uuid;
}

/** Broker ids from plain numbers. */
export function ids(...values: number[]): BrokerId[] {
  return values as BrokerId[];
}

/** A record input at its type's newest version, made whole by the codec. */
export function whole(input: Omit<MetadataRecordInput, "version">): MetadataRecord {
  const schema = metadataRecordSchema(input.type);
  if (schema === undefined) throw new RangeError(`no metadata record type ${input.type}`);
  const version = schema.validVersions[1];
  return decodeMetadataRecord(encodeMetadataRecord({ ...input, version } as MetadataRecordInput));
}

/** Options of a test broker; by default active with no log dirs reported. */
export interface TestBroker {
  readonly epoch?: number;
  readonly isFenced?: boolean;
  readonly isInControlledShutdown?: boolean;
  readonly directories?: readonly Uuid[];
}

/** RegisterBrokerRecord of broker `id`. */
export function broker(id: number, options: TestBroker = {}): MetadataRecord {
  return whole({
    type: T.RegisterBrokerRecord,
    data: {
      brokerId: id,
      brokerEpoch: options.epoch ?? 100 + id,
      incarnationId: uuid(5000 + id),
      endPoints: [{ name: "PLAINTEXT", host: "localhost", port: 9000 + id, securityProtocol: 0 }],
      rack: null,
      fenced: options.isFenced ?? false,
      inControlledShutdown: options.isInControlledShutdown ?? false,
      logDirs: (options.directories ?? []).slice(),
    },
  });
}

/** TopicRecord. */
export function topic(name: string, topicId: Uuid): MetadataRecord {
  return whole({ type: T.TopicRecord, data: { name, topicId } });
}

/** The partition state of a test PartitionRecord; the leader defaults to the first ISR member. */
export interface TestPartition {
  readonly replicas: readonly number[];
  readonly isr?: readonly number[];
  readonly leader?: number;
  readonly leaderEpoch?: number;
  readonly partitionEpoch?: number;
  readonly adding?: readonly number[];
  readonly removing?: readonly number[];
  readonly elr?: readonly number[];
  readonly lastKnownElr?: readonly number[];
  readonly directories?: readonly Uuid[];
  readonly isRecovering?: boolean;
}

/** PartitionRecord of partition `partitionId` of topic `topicId`. */
export function partition(
  topicId: Uuid,
  partitionId: number,
  state: TestPartition,
): MetadataRecord {
  const isr = (state.isr ?? state.replicas).slice();
  return whole({
    type: T.PartitionRecord,
    data: {
      partitionId,
      topicId,
      replicas: state.replicas.slice(),
      isr,
      addingReplicas: (state.adding ?? []).slice(),
      removingReplicas: (state.removing ?? []).slice(),
      leader: state.leader ?? isr[0] ?? -1,
      leaderRecoveryState: state.isRecovering === true ? 1 : 0,
      leaderEpoch: state.leaderEpoch ?? 5,
      partitionEpoch: state.partitionEpoch ?? 10,
      directories: (state.directories ?? []).slice(),
      eligibleLeaderReplicas: state.elr === undefined ? null : state.elr.slice(),
      lastKnownElr: state.lastKnownElr === undefined ? null : state.lastKnownElr.slice(),
    },
  });
}

/** ConfigRecord; a BROKER (4) resource named "" is the cluster-wide default. */
export function config(
  resourceType: number,
  resourceName: string,
  name: string,
  value: string,
): MetadataRecord {
  return whole({ type: T.ConfigRecord, data: { resourceType, resourceName, name, value } });
}

/** A topic config record. */
export const topicConfig = (topicName: string, name: string, value: string): MetadataRecord =>
  config(2, topicName, name, value);

/** FeatureLevelRecord. */
export function feature(name: string, level: number): MetadataRecord {
  return whole({ type: T.FeatureLevelRecord, data: { name, featureLevel: level } });
}

/** The record that turns KIP-966 eligible leader replicas on. */
export const elrOn = (): MetadataRecord => feature("eligible.leader.replicas.version", 1);

/** `records` replayed, in order, onto `base` (the empty image by default). */
export function imageOf(
  records: readonly MetadataRecord[],
  base: MetadataImage = EMPTY_IMAGE,
): MetadataImage {
  const delta = new MetadataDelta(base);
  records.forEach((record, index) =>
    delta.replay(record, base.provenance.lastContainedOffset + 1 + index),
  );
  const lastContainedOffset = base.provenance.lastContainedOffset + records.length;
  return delta.apply({ lastContainedOffset, lastContainedEpoch: 1 });
}

/**
 * `records` as they would be read back from the log: encoded and decoded, which also proves that
 * each one fits its record version, then replayed onto `image`.
 */
export function applyOutput(
  image: MetadataImage,
  records: readonly MetadataRecord[],
): MetadataImage {
  const decoded = records.map((record) => decodeMetadataRecord(encodeMetadataRecord(record)));
  return imageOf(decoded, image);
}

/** Partition `partitionId` of topic `topicId` in `image`; throws when it is missing. */
export function partitionOf(
  image: MetadataImage,
  topicId: Uuid,
  partitionId: number,
): PartitionRegistration {
  const found = image.topics.byId.get(topicId)?.partitions.get(partitionId);
  if (found === undefined) throw new RangeError(`no partition ${topicId}-${partitionId}`);
  return found;
}

/** The data of each PartitionChangeRecord among `records`. */
export function changeRecords(records: readonly MetadataRecord[]) {
  return records.map((record) => {
    if (record.type !== T.PartitionChangeRecord) throw new RangeError(`record type ${record.type}`);
    return record.data;
  });
}
