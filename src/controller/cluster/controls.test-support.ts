/**
 * Builders shared by the tests of the membership, topic, config, producer-id and feature
 * controls: images built by replaying whole records (made so by a codec round trip) through
 * MetadataDelta, the replay of an operation's records (each encoded first, so a record the codec
 * refuses fails the test), a seeded Random, and partition hooks that record their calls.
 */
import type { BrokerId, Uuid } from "../../common/index.js";
import { EMPTY_IMAGE, MetadataDelta } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { Random } from "../../ports/index.js";
import {
  MetadataRecordType,
  decodeMetadataRecord,
  encodeMetadataRecord,
  metadataRecordSchema,
} from "../../protocol/index.js";
import type { MetadataRecord, MetadataRecordInput } from "../../protocol/index.js";
import { bootstrapRecords } from "../features/index.js";
import type { PartitionHooks } from "./partition-hooks.js";

const T = MetadataRecordType;

/** A readable test Uuid ending in `n`, never a reserved one. */
export function testUuid(n: number): Uuid {
  return `b${n.toString(16).padStart(31, "0")}` as Uuid;
}

/** A record input at its type's newest version, made whole by the codec. */
export function wholeRecord(input: Omit<MetadataRecordInput, "version">): MetadataRecord {
  const schema = metadataRecordSchema(input.type);
  if (schema === undefined) throw new RangeError(`no metadata record type ${input.type}`);
  const version = schema.validVersions[1];
  return decodeMetadataRecord(encodeMetadataRecord({ ...input, version } as MetadataRecordInput));
}

/** How a test broker is registered. */
export interface TestBroker {
  readonly epoch?: number;
  readonly isFenced?: boolean;
  readonly isInControlledShutdown?: boolean;
  readonly rack?: string | null;
  readonly directories?: readonly Uuid[];
  readonly incarnationId?: Uuid;
}

/** A RegisterBrokerRecord of an unfenced broker by default, listening on PLAINTEXT. */
export function brokerRecord(id: number, options: TestBroker = {}): MetadataRecord {
  return wholeRecord({
    type: T.RegisterBrokerRecord,
    data: {
      brokerId: id,
      brokerEpoch: options.epoch ?? 100 + id,
      incarnationId: options.incarnationId ?? testUuid(5000 + id),
      endPoints: [{ name: "PLAINTEXT", host: `broker${id}`, port: 9092, securityProtocol: 0 }],
      features: [{ name: "metadata.version", minSupportedVersion: 7, maxSupportedVersion: 22 }],
      rack: options.rack ?? null,
      fenced: options.isFenced ?? false,
      inControlledShutdown: options.isInControlledShutdown ?? false,
      logDirs: [...(options.directories ?? [testUuid(9000 + id)])],
    },
  });
}

/** TopicRecord and PartitionRecords of a topic, leader first in each replica list. */
export function topicRecords(
  name: string,
  topicId: Uuid,
  partitions: number[][],
): MetadataRecord[] {
  const records = [wholeRecord({ type: T.TopicRecord, data: { name, topicId } })];
  partitions.forEach((replicas, partitionId) => {
    const leader = replicas[0] ?? -1;
    const data = {
      partitionId,
      topicId,
      replicas,
      isr: replicas,
      leader,
      leaderEpoch: 0,
      partitionEpoch: 0,
    };
    records.push(wholeRecord({ type: T.PartitionRecord, data }));
  });
  return records;
}

export function configRecordOf(
  resourceType: number,
  resourceName: string,
  name: string,
  value: string | null,
): MetadataRecord {
  return wholeRecord({ type: T.ConfigRecord, data: { resourceType, resourceName, name, value } });
}

/**
 * Replays records onto an image. Each is encoded and decoded first, so a record the codec
 * cannot write fails the test, and the image sees exactly what a follower would.
 */
export function replay(image: MetadataImage, records: readonly MetadataRecord[]): MetadataImage {
  const delta = new MetadataDelta(image);
  let offset = image.provenance.lastContainedOffset;
  for (const record of records) {
    offset += 1;
    delta.replay(decodeMetadataRecord(encodeMetadataRecord(record)), offset);
  }
  return delta.apply({ lastContainedOffset: offset, lastContainedEpoch: 1 });
}

/** A bootstrapped image (metadata.version 22) with `records` replayed after. */
export function imageOf(...records: MetadataRecord[]): MetadataImage {
  return replay(EMPTY_IMAGE, [...bootstrapRecords(), ...records]);
}

/** A seeded Random (mulberry32), so placement and topic ids repeat from run to run. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const nextUint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    nextUint32,
    nextFloat: () => nextUint32() / 2 ** 32,
    nextInt: (boundExclusive) => Math.floor((nextUint32() / 2 ** 32) * boundExclusive),
    fill: (target) => {
      for (let index = 0; index < target.length; index += 1) target[index] = nextUint32() & 0xff;
      return target;
    },
  };
}

export interface HookCall {
  readonly hook: keyof PartitionHooks;
  readonly brokerId: BrokerId;
  readonly directories?: readonly Uuid[];
}

/**
 * Hooks that record their calls and answer with a NoOpRecord per call, so a test sees both that
 * the hook ran and where its records went in the batch; with `isSilent`, they answer with no
 * records, as the election code does for a broker that is in no partition.
 */
export function recordingHooks(options: { readonly isSilent?: boolean } = {}): {
  hooks: PartitionHooks;
  calls: HookCall[];
} {
  const calls: HookCall[] = [];
  const marker = (): MetadataRecord[] =>
    options.isSilent === true ? [] : [{ type: T.NoOpRecord, version: 0, data: {} }];
  const hooks: PartitionHooks = {
    brokerFenced: (_image, brokerId) => (calls.push({ hook: "brokerFenced", brokerId }), marker()),
    brokerShuttingDown: (_image, brokerId) => (
      calls.push({ hook: "brokerShuttingDown", brokerId }),
      marker()
    ),
    brokerUncleanShutdown: (_image, brokerId) => (
      calls.push({ hook: "brokerUncleanShutdown", brokerId }),
      marker()
    ),
    brokerUnfenced: (_image, brokerId) => (
      calls.push({ hook: "brokerUnfenced", brokerId }),
      marker()
    ),
    logDirsOffline: (_image, brokerId, directories) => (
      calls.push({ hook: "logDirsOffline", brokerId, directories }),
      marker()
    ),
  };
  return { hooks, calls };
}
