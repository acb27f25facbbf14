/**
 * Configuration keys of the group coordinator and the `__consumer_offsets` topic, with Kafka's
 * defaults and validators.
 */
import type { ConfigDefinition } from "./config-types.js";
import { atLeast, between, listOf } from "./validators.js";

const ASSIGNORS = ["uniform", "range"];
const knownAssignors = listOf(ASSIGNORS);

/** Java's Integer.MAX_VALUE, Kafka's default `group.max.size` (no limit in practice). */
const INT_MAX = 2_147_483_647;

/** The keys of consumer groups and committed offsets. */
export const groupDefinitions: readonly ConfigDefinition[] = [
  {
    name: "group.initial.rebalance.delay.ms",
    type: "int",
    defaultValue: 3_000,
    // Kafka takes any int here; a negative delay has no meaning, so Sluice refuses it.
    validator: atLeast(0),
    importance: "medium",
    description:
      "How long the first rebalance of an empty group waits for more members to join; 0 " +
      "rebalances at once, which suits tests and single consumers.",
  },
  {
    name: "group.min.session.timeout.ms",
    type: "int",
    defaultValue: 6_000,
    validator: atLeast(0),
    importance: "medium",
    description: "The shortest session timeout a group member may ask for.",
  },
  {
    name: "group.max.session.timeout.ms",
    type: "int",
    defaultValue: 1_800_000,
    validator: atLeast(0),
    importance: "medium",
    description: "The longest session timeout a group member may ask for.",
  },
  {
    name: "group.max.size",
    type: "int",
    defaultValue: INT_MAX,
    validator: atLeast(1),
    importance: "medium",
    description: "The most members one consumer group may have.",
  },
  {
    name: "group.consumer.session.timeout.ms",
    type: "int",
    defaultValue: 45_000,
    validator: atLeast(1),
    importance: "medium",
    description:
      "How long a member of a consumer group (KIP-848 protocol) may go without a heartbeat " +
      "before it is removed and its partitions reassigned.",
  },
  {
    name: "group.consumer.heartbeat.interval.ms",
    type: "int",
    defaultValue: 5_000,
    validator: atLeast(1),
    importance: "medium",
    description: "How often members of a consumer group (KIP-848 protocol) are told to heartbeat.",
  },
  {
    name: "group.consumer.max.size",
    type: "int",
    defaultValue: INT_MAX,
    validator: atLeast(1),
    importance: "medium",
    description: "The most members one consumer group of the KIP-848 protocol may have.",
  },
  {
    name: "group.consumer.assignors",
    type: "list",
    defaultValue: ASSIGNORS,
    validator: {
      accepted: `a non-empty ${knownAssignors.accepted}`,
      check: (value) =>
        Array.isArray(value) && value.length === 0 ? "is empty" : knownAssignors.check(value),
    },
    importance: "medium",
    description:
      "The server-side assignors of consumer groups (KIP-848 protocol); a group uses the one " +
      "most of its members name, else the first.",
  },
  {
    name: "offsets.topic.num.partitions",
    type: "int",
    defaultValue: 50,
    validator: atLeast(1),
    importance: "high",
    description:
      "The partitions of __consumer_offsets when it is created; groups are spread over them, " +
      "so it should not change once the topic exists.",
  },
  {
    name: "offsets.topic.replication.factor",
    type: "int",
    defaultValue: 3,
    // A Java short in Kafka, so its upper bound is Short.MAX_VALUE.
    validator: between(1, 32_767),
    importance: "high",
    description:
      "The replication factor of __consumer_offsets, capped to the live brokers when the " +
      "topic is created.",
  },
  {
    name: "offsets.retention.minutes",
    type: "int",
    defaultValue: 10_080,
    validator: atLeast(1),
    importance: "high",
    description: "How long the committed offsets of a group that has become empty are kept.",
  },
  {
    name: "offset.metadata.max.bytes",
    type: "int",
    defaultValue: 4_096,
    importance: "high",
    description: "The longest metadata string an offset commit may carry.",
  },
];
