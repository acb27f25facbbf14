/**
 * Random valid metadata logs for property tests: fast-check draws abstract steps, and a small
 * model of the cluster turns each into records that a controller could have committed (they only
 * name topics, partitions and broker epochs that exist at that point of the log).
 */
import fc from "fast-check";
import { MetadataRecordType as T } from "../protocol/index.js";
import type { MetadataRecord } from "../protocol/index.js";
import { ConfigResourceType } from "./images.js";
import {
  configRecord,
  featureLevel,
  fenceBroker,
  full,
  partitionChange,
  partitionRecord,
  registerBroker,
  removeTopic,
  testUuid,
  topicRecord,
  unfenceBroker,
} from "./records.test-support.js";

/** One abstract step: a kind and three numbers that pick among what exists. */
export type Step = readonly [kind: number, first: number, second: number, third: number];

/** Arbitrary steps; each becomes zero or more records. */
export const stepsArbitrary = (maxLength: number): fc.Arbitrary<Step[]> =>
  fc.array(fc.tuple(fc.nat(7), fc.nat(1000), fc.nat(1000), fc.nat(1000)), { maxLength });

interface Model {
  topics: Map<string, { name: string; partitionCount: number }>;
  brokerEpochs: Map<number, number>;
  createdTopics: number;
}

const BROKERS = [1, 2, 3, 4];

function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[index % items.length];
}

function replicasFor(seed: number, count: number): number[] {
  return Array.from(
    { length: count },
    (_, index) => BROKERS[(seed + index) % BROKERS.length] as number,
  );
}

function createTopic(model: Model, [, first, second]: Step): MetadataRecord[] {
  const id = testUuid(0x100 + model.createdTopics);
  const name = `topic-${model.createdTopics}`;
  model.createdTopics += 1;
  const partitionCount = 1 + (first % 3);
  model.topics.set(id, { name, partitionCount });
  const records = [topicRecord(name, id)];
  for (let index = 0; index < partitionCount; index++) {
    records.push(partitionRecord(id, index, replicasFor(second + index, 1 + (second % 3))));
  }
  if (second % 2 === 0)
    records.push(configRecord(ConfigResourceType.TOPIC, name, "retention.ms", `${first}`));
  return records;
}

function changePartition(model: Model, [, first, second, third]: Step): MetadataRecord[] {
  const id = pick([...model.topics.keys()], first);
  if (id === undefined) return [];
  const topic = model.topics.get(id);
  if (topic === undefined) return [];
  const changes: Record<string, unknown> = {};
  const leader = [-2, -1, 1, 2, 3][third % 5] as number;
  if (leader !== -2) changes["leader"] = leader;
  if (third % 3 === 0) changes["isr"] = replicasFor(third, 1 + (third % 2));
  if (third % 7 === 0) changes["replicas"] = replicasFor(second, 2);
  if (third % 11 === 0) changes["eligibleLeaderReplicas"] = [BROKERS[third % 4]];
  if (third % 13 === 0) changes["leaderRecoveryState"] = third % 2;
  return [partitionChange(id, second % topic.partitionCount, changes)];
}

function brokerStep(model: Model, [kind, first, second]: Step): MetadataRecord[] {
  const id = BROKERS[first % BROKERS.length] as number;
  const epoch = model.brokerEpochs.get(id);
  if (kind === 2 || epoch === undefined) {
    const next = (epoch ?? 0) + 1 + (second % 3);
    model.brokerEpochs.set(id, next);
    return [
      registerBroker(id, next, { fenced: second % 2 === 0, rack: second % 4 === 0 ? "r1" : null }),
    ];
  }
  if (kind === 7) {
    model.brokerEpochs.delete(id);
    return [full({ type: T.UnregisterBrokerRecord, data: { brokerId: id, brokerEpoch: epoch } })];
  }
  if (second % 3 === 0) return [fenceBroker(id, epoch)];
  if (second % 3 === 1) return [unfenceBroker(id, epoch)];
  const data = {
    brokerId: id,
    brokerEpoch: epoch,
    fenced: (second % 3) - 1,
    inControlledShutdown: second % 2,
  };
  return [full({ type: T.BrokerRegistrationChangeRecord, data })];
}

function configStep(model: Model, [, first, second, third]: Step): MetadataRecord[] {
  const topicName = pick([...model.topics.values()], first)?.name;
  const isTopic = topicName !== undefined && first % 2 === 0;
  const type = isTopic ? ConfigResourceType.TOPIC : ConfigResourceType.BROKER;
  const name = isTopic ? topicName : (["", "1", "2"][first % 3] as string);
  const value = third % 4 === 0 ? null : `v${third}`;
  return [configRecord(type, name, `key.${second % 3}`, value)];
}

function otherStep(model: Model, [kind, first, second]: Step): MetadataRecord[] {
  if (kind === 5) {
    const id = pick([...model.topics.keys()], first);
    if (id === undefined) return [];
    model.topics.delete(id);
    return [removeTopic(id)];
  }
  if (first % 3 === 0) return [featureLevel("metadata.version", 10 + (second % 10))];
  if (first % 3 === 1) return [featureLevel("group.version", second % 2)];
  const data = { brokerId: 1, brokerEpoch: -1, nextProducerId: second * 1000 };
  return [full({ type: T.ProducerIdsRecord, data })];
}

/** The records of a valid log that the steps describe. */
export function recordsOf(steps: readonly Step[]): MetadataRecord[] {
  const model: Model = { topics: new Map(), brokerEpochs: new Map(), createdTopics: 0 };
  const records: MetadataRecord[] = [];
  for (const step of steps) {
    const kind = step[0];
    if (kind === 0) records.push(...createTopic(model, step));
    else if (kind === 1) records.push(...changePartition(model, step));
    else if (kind === 2 || kind === 3 || kind === 7) records.push(...brokerStep(model, step));
    else if (kind === 4) records.push(...configStep(model, step));
    else records.push(...otherStep(model, step));
  }
  return records;
}
