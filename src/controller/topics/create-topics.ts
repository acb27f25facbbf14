/**
 * CreateTopics (v0-v7). Each topic is checked in Kafka's order: a legal name, named once, not
 * existing, not colliding with another topic under '.'/'_' unification, valid counts or manual
 * assignment, valid configs. A topic that passes gets a TopicRecord, its ConfigRecords and one
 * PartitionRecord per partition; each topic succeeds or fails alone. validateOnly answers as if
 * created and writes nothing.
 */
import { ErrorCode, ZERO_UUID } from "../../common/index.js";
import type { Uuid } from "../../common/index.js";
import { ConfigResourceType } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { Random } from "../../ports/index.js";
import type {
  CreateTopicsRequest,
  CreateTopicsRequestCreatableTopic,
  CreateTopicsResponse,
  CreateTopicsResponseCreatableTopicResult,
  MetadataRecord,
} from "../../protocol/index.js";
import { imageAfter } from "../cluster/index.js";
import type { ControllerResult } from "../cluster/index.js";
import { TOPIC_CONFIGS, configRecord, resolveTopicConfig } from "../configs/index.js";
import type { StaticBrokerConfig } from "../configs/index.js";
import type { TopicRefusal } from "./manual-assignment.js";
import { planTopicPartitions } from "./partition-plan.js";
import type { TopicDefaults } from "./partition-plan.js";
import { invalidTopicConfigs } from "./topic-configs.js";
import { newTopicId } from "./topic-ids.js";
import { invalidTopicNameReason, shownTopicName, unifiedTopicName } from "./topic-names.js";
import { newPartitionRecord, topicRecord } from "./topic-records.js";

/** The most partitions one request may create, so one request cannot flood the metadata log. */
export const PARTITIONS_PER_REQUEST_MAX = 10_000;

export interface CreateTopicsContext {
  readonly image: MetadataImage;
  /** Draws topic ids and placement starts; the driver passes its Random port. */
  readonly random: Random;
  readonly defaults: TopicDefaults;
  readonly staticConfig: StaticBrokerConfig;
}

/** Progress through one request: what earlier topics created. */
interface Batch {
  image: MetadataImage;
  readonly records: MetadataRecord[];
  readonly names: Set<string>;
  readonly unifiedNames: Map<string, string>;
  readonly topicIds: Set<Uuid>;
  partitionCount: number;
}

export function createTopics(
  context: CreateTopicsContext,
  request: CreateTopicsRequest,
): ControllerResult<CreateTopicsResponse> {
  const counts = new Map<string, number>();
  for (const topic of request.topics) counts.set(topic.name, (counts.get(topic.name) ?? 0) + 1);
  const batch: Batch = {
    image: context.image,
    records: [],
    names: new Set(),
    unifiedNames: unifiedNamesOf(context.image),
    topicIds: new Set(),
    partitionCount: 0,
  };
  const topics = request.topics.map((topic) => {
    if ((counts.get(topic.name) ?? 0) > 1) {
      return failed(topic.name, {
        errorCode: ErrorCode.INVALID_REQUEST,
        errorMessage: `topic ${shownTopicName(topic.name)} is named more than once`,
      });
    }
    return createTopic(context, batch, topic);
  });
  const records = request.validateOnly ? [] : batch.records;
  const response = {
    throttleTimeMs: 0,
    topics: request.validateOnly ? topics.map(withoutTopicId) : topics,
  };
  return { records, response };
}

function createTopic(
  context: CreateTopicsContext,
  batch: Batch,
  topic: CreateTopicsRequestCreatableTopic,
): CreateTopicsResponseCreatableTopicResult {
  const refusal = nameRefusal(batch, topic.name);
  if (refusal !== undefined) return failed(topic.name, refusal);
  // Checked before the plan, whose size is the count asked for: 2^31-1 partitions is legal input.
  if (
    batch.partitionCount + askedPartitions(topic, context.defaults) >
    PARTITIONS_PER_REQUEST_MAX
  ) {
    const errorMessage = `one request may create at most ${PARTITIONS_PER_REQUEST_MAX} partitions`;
    return failed(topic.name, { errorCode: ErrorCode.POLICY_VIOLATION, errorMessage });
  }
  const plan = planTopicPartitions(batch.image, topic, context.defaults, context.random);
  if (plan.kind === "refused") return failed(topic.name, plan);
  const configRefusal = invalidTopicConfigs(topic.configs);
  if (configRefusal !== undefined) return failed(topic.name, configRefusal);
  const topicId = newTopicId(batch.image, context.random, batch.topicIds);
  const records: MetadataRecord[] = [topicRecord(topic.name, topicId)];
  for (const config of topic.configs) {
    records.push(configRecord(ConfigResourceType.TOPIC, topic.name, config.name, config.value));
  }
  plan.partitions.forEach((partition, partitionId) => {
    records.push(newPartitionRecord(batch.image, { topicId, partitionId, ...partition }));
  });
  batch.image = imageAfter(batch.image, records);
  batch.records.push(...records);
  batch.names.add(topic.name);
  batch.unifiedNames.set(unifiedTopicName(topic.name), topic.name);
  batch.topicIds.add(topicId);
  batch.partitionCount += plan.partitions.length;
  return created(context, batch.image, topic.name, topicId, plan);
}

/** How many partitions `topic` asks for: its assignments, its count, or `num.partitions`. */
function askedPartitions(
  topic: CreateTopicsRequestCreatableTopic,
  defaults: TopicDefaults,
): number {
  if (topic.assignments.length > 0) return topic.assignments.length;
  return topic.numPartitions === -1 ? defaults.numPartitions : Math.max(0, topic.numPartitions);
}

/** Why the name cannot be created, given the image and the topics created before it. */
function nameRefusal(batch: Batch, name: string): TopicRefusal | undefined {
  const invalid = invalidTopicNameReason(name);
  if (invalid !== undefined)
    return { errorCode: ErrorCode.INVALID_TOPIC_EXCEPTION, errorMessage: invalid };
  if (batch.image.topics.byName.has(name)) {
    return {
      errorCode: ErrorCode.TOPIC_ALREADY_EXISTS,
      errorMessage: `topic ${name} already exists`,
    };
  }
  const collision = batch.unifiedNames.get(unifiedTopicName(name));
  if (collision !== undefined) {
    const errorMessage =
      `topic ${name} collides with existing topic ${collision}: ` + "'.' and '_' count as the same";
    return { errorCode: ErrorCode.INVALID_TOPIC_EXCEPTION, errorMessage };
  }
  return undefined;
}

function unifiedNamesOf(image: MetadataImage): Map<string, string> {
  const names = new Map<string, string>();
  for (const name of image.topics.byName.keys()) names.set(unifiedTopicName(name), name);
  return names;
}

function created(
  context: CreateTopicsContext,
  image: MetadataImage,
  name: string,
  topicId: Uuid,
  plan: { readonly partitions: readonly unknown[]; readonly replicationFactor: number },
): CreateTopicsResponseCreatableTopicResult {
  const scope = { image, staticConfig: context.staticConfig };
  const configs = TOPIC_CONFIGS.map((definition) => {
    const resolved = resolveTopicConfig(scope, name, definition);
    return {
      name: resolved.name,
      value: resolved.value,
      readOnly: false,
      configSource: resolved.source,
      isSensitive: false,
    };
  });
  return {
    name,
    topicId,
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    topicConfigErrorCode: ErrorCode.NONE,
    numPartitions: plan.partitions.length,
    replicationFactor: plan.replicationFactor,
    configs,
  };
}

function failed(name: string, refusal: TopicRefusal): CreateTopicsResponseCreatableTopicResult {
  return {
    name,
    topicId: ZERO_UUID,
    errorCode: refusal.errorCode,
    errorMessage: refusal.errorMessage,
    topicConfigErrorCode: ErrorCode.NONE,
    numPartitions: -1,
    replicationFactor: -1,
    configs: [],
  };
}

/** A validateOnly answer names no topic id: no topic was created. */
function withoutTopicId(
  result: CreateTopicsResponseCreatableTopicResult,
): CreateTopicsResponseCreatableTopicResult {
  return { ...result, topicId: ZERO_UUID };
}
