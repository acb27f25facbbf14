// Topics and partitions: name rules, striped rack-aware replica placement, CreateTopics,
// DeleteTopics and CreatePartitions, and the records of new topics and partitions.
export {
  TOPIC_NAME_LENGTH_MAX,
  hasCollisionCharacters,
  invalidTopicNameReason,
  unifiedTopicName,
} from "./topic-names.js";
export { placeReplicas, usableBrokers } from "./replica-placement.js";
export type { PlacementRequest, UsableBroker } from "./replica-placement.js";
export { planPlacedPartitions, planTopicPartitions } from "./partition-plan.js";
export type { PartitionPlan, PlannedPartition, TopicDefaults } from "./partition-plan.js";
export { newPartitionRecord, removeTopicRecord, topicRecord } from "./topic-records.js";
export type { NewPartition } from "./topic-records.js";
export { newTopicId } from "./topic-ids.js";
export { PARTITIONS_PER_REQUEST_MAX, createTopics } from "./create-topics.js";
export type { CreateTopicsContext } from "./create-topics.js";
export { deleteTopics } from "./delete-topics.js";
export { createPartitions } from "./create-partitions.js";
