/**
 * Configuration keys of the partition logs: log dirs, segments, retention, flushing, cleaning
 * and indexes. Defaults are Kafka's; Kafka's Long.MAX_VALUE ("never") is the largest safe
 * integer here, since Sluice keeps 64-bit values as JavaScript numbers.
 */
import type { ConfigDefinition } from "./config-types.js";
import { atLeast, between, listOf, oneOf } from "./validators.js";

/** Kafka's Long.MAX_VALUE as Sluice holds it. */
export const LONG_MAX = Number.MAX_SAFE_INTEGER;

export const logDefinitions: readonly ConfigDefinition[] = [
  {
    name: "log.dirs",
    type: "list",
    defaultValue: null,
    importance: "high",
    description: "The folders that hold partition data; when unset, log.dir is used.",
  },
  {
    name: "log.dir",
    type: "string",
    defaultValue: "/tmp/sluice-logs",
    importance: "high",
    description: "The one data folder used when log.dirs is unset.",
  },
  {
    name: "metadata.log.dir",
    type: "string",
    defaultValue: null,
    importance: "high",
    description: "The folder of the cluster metadata log; defaults to the first log dir.",
  },
  {
    name: "log.segment.bytes",
    type: "int",
    defaultValue: 1_073_741_824,
    validator: atLeast(14),
    importance: "high",
    description: "The largest a segment file grows before a new one is rolled.",
  },
  {
    name: "log.roll.ms",
    type: "long",
    defaultValue: null,
    importance: "high",
    description: "The longest a segment stays active before rolling; overrides log.roll.hours.",
  },
  {
    name: "log.roll.hours",
    type: "int",
    defaultValue: 168,
    validator: atLeast(1),
    importance: "high",
    description: "The longest a segment stays active before rolling, in hours.",
  },
  {
    name: "log.retention.ms",
    type: "long",
    defaultValue: null,
    importance: "high",
    description: "How long data is kept, -1 for ever; overrides the minutes and hours keys.",
  },
  {
    name: "log.retention.minutes",
    type: "int",
    defaultValue: null,
    importance: "high",
    description: "How long data is kept, in minutes; overrides log.retention.hours.",
  },
  {
    name: "log.retention.hours",
    type: "int",
    defaultValue: 168,
    importance: "high",
    description: "How long data is kept, in hours.",
  },
  {
    name: "log.retention.bytes",
    type: "long",
    defaultValue: -1,
    importance: "high",
    description: "The most bytes a partition keeps before old segments go, -1 for no limit.",
  },
  {
    name: "log.retention.check.interval.ms",
    type: "long",
    defaultValue: 300_000,
    validator: atLeast(1),
    importance: "medium",
    description: "How often logs are checked for segments past their retention.",
  },
  {
    name: "log.flush.interval.messages",
    type: "long",
    defaultValue: LONG_MAX,
    validator: atLeast(1),
    importance: "high",
    description: "How many records a partition takes before its log is forced to disk.",
  },
  {
    name: "log.flush.interval.ms",
    type: "long",
    defaultValue: null,
    importance: "high",
    description: "The longest a record waits in memory before a forced flush.",
  },
  {
    name: "log.flush.scheduler.interval.ms",
    type: "long",
    defaultValue: LONG_MAX,
    importance: "high",
    description: "How often logs are checked for a time-based flush.",
  },
  {
    name: "log.flush.offset.checkpoint.interval.ms",
    type: "int",
    defaultValue: 60_000,
    validator: atLeast(0),
    importance: "high",
    description: "How often the recovery point checkpoint of each log dir is written.",
  },
  {
    name: "log.flush.start.offset.checkpoint.interval.ms",
    type: "int",
    defaultValue: 60_000,
    validator: atLeast(0),
    importance: "high",
    description: "How often the log start offset checkpoint of each log dir is written.",
  },
  {
    name: "log.cleanup.policy",
    type: "list",
    defaultValue: ["delete"],
    validator: listOf(["compact", "delete"]),
    importance: "medium",
    description: "What happens to old segments: delete them, compact them by key, or both.",
  },
  {
    name: "log.cleaner.enable",
    type: "boolean",
    defaultValue: true,
    importance: "medium",
    description: "Whether the log cleaner runs, which compacted topics need.",
  },
  {
    name: "log.cleaner.backoff.ms",
    type: "long",
    defaultValue: 15_000,
    validator: atLeast(0),
    importance: "medium",
    description: "How long the log cleaner waits after a pass that found no log to clean.",
  },
  {
    name: "log.cleaner.delete.retention.ms",
    type: "long",
    defaultValue: 86_400_000,
    validator: atLeast(0),
    importance: "medium",
    description: "How long a tombstone stays in a compacted log after cleaning reaches it.",
  },
  {
    name: "log.cleaner.min.cleanable.ratio",
    type: "double",
    defaultValue: 0.5,
    validator: between(0, 1),
    importance: "medium",
    description: "The share of uncleaned bytes in a log above which it is cleaned.",
  },
  {
    name: "log.index.interval.bytes",
    type: "int",
    defaultValue: 4096,
    validator: atLeast(0),
    importance: "medium",
    description: "How many log bytes lie between offset index entries.",
  },
  {
    name: "log.index.size.max.bytes",
    type: "int",
    defaultValue: 10_485_760,
    validator: atLeast(4),
    importance: "medium",
    description: "The largest an offset or time index file may grow.",
  },
  {
    name: "log.segment.delete.delay.ms",
    type: "long",
    defaultValue: 60_000,
    validator: atLeast(0),
    importance: "high",
    description: "How long a deleted segment's files stay before they are removed.",
  },
  {
    name: "log.message.timestamp.type",
    type: "string",
    defaultValue: "CreateTime",
    validator: oneOf(["CreateTime", "LogAppendTime"]),
    importance: "medium",
    description: "Whether record timestamps are the producer's or the broker's append time.",
  },
  {
    name: "num.recovery.threads.per.data.dir",
    type: "int",
    defaultValue: 1,
    validator: atLeast(1),
    importance: "high",
    description: "How many logs of one dir are recovered or flushed at once on start and stop.",
  },
  {
    name: "sluice.log.max.open.files",
    type: "int",
    defaultValue: 10_000,
    validator: atLeast(16),
    importance: "medium",
    description:
      "Sluice only: the most files the partition logs keep open at once; files of segments " +
      "and partitions not in use are closed and opened again when needed. At start it is " +
      "lowered to half the process's open-file limit.",
  },
  {
    name: "log.dir.failure.timeout.ms",
    type: "long",
    defaultValue: 30_000,
    validator: atLeast(1),
    importance: "low",
    description:
      "How long a broker may take to tell the controller that a log dir failed; a broker that " +
      "has not managed to by then shuts down.",
  },
  {
    name: "sluice.log.dir.full.probe.interval.ms",
    type: "long",
    defaultValue: 10_000,
    validator: atLeast(1),
    importance: "medium",
    description:
      "Sluice only: how often a log dir that went offline because its disk was full (the " +
      "node's last online dir) is probed for 1 MiB of room; once there is, it comes back online.",
  },
  {
    name: "producer.id.expiration.ms",
    type: "int",
    defaultValue: 86_400_000,
    validator: atLeast(1),
    importance: "low",
    description:
      "How long a partition keeps an idle idempotent producer's sequence state after its last " +
      "batch's timestamp.",
  },
];
