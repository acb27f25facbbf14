/**
 * The topic configs Sluice knows: Kafka 4.0's topic-level configs and the three of Kafka 3.x
 * that 4.0 removed, with their defaults, value rules and the broker configs that supply their
 * defaults (Kafka's LogConfig synonyms). The tiered-storage configs are left out, since Sluice
 * has no remote storage; setting one is an unknown config. Documentation texts are our own.
 */
import type {
  BrokerSynonym,
  ConfigDefinition,
  ConfigRule,
  ConfigValueType,
} from "./config-definition.js";

const LONG_MAX = "9223372036854775807";
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

const none: ConfigRule = { kind: "none" };
const atLeast = (min: number): ConfigRule => ({ kind: "atLeast", min });
const between = (min: number, max: number): ConfigRule => ({ kind: "between", min, max });
const oneOf = (...values: string[]): ConfigRule => ({ kind: "oneOf", values });
const ms = (name: string): BrokerSynonym => ({ name, scaleMs: 1 });
const hours = (name: string): BrokerSynonym => ({ name, scaleMs: HOUR_MS });
const minutes = (name: string): BrokerSynonym => ({ name, scaleMs: MINUTE_MS });

function define(
  name: string,
  type: ConfigValueType,
  defaultValue: string,
  rule: ConfigRule,
  brokerSynonyms: readonly BrokerSynonym[],
  documentation: string,
): ConfigDefinition {
  return { name, type, defaultValue, rule, brokerSynonyms, documentation };
}

/** Every topic config, by name order. */
export const TOPIC_CONFIGS: readonly ConfigDefinition[] = [
  define(
    "cleanup.policy",
    "list",
    "delete",
    { kind: "listOf", values: ["compact", "delete"] },
    [ms("log.cleanup.policy")],
    "How old segments go: deleted by retention, compacted by key, or both.",
  ),
  define(
    "compression.gzip.level",
    "int",
    "-1",
    { kind: "compressionLevel", min: 1, max: 9, other: -1 },
    [ms("compression.gzip.level")],
    "The gzip level when the topic recompresses with gzip.",
  ),
  define(
    "compression.lz4.level",
    "int",
    "9",
    between(1, 17),
    [ms("compression.lz4.level")],
    "The lz4 level when the topic recompresses with lz4.",
  ),
  define(
    "compression.type",
    "string",
    "producer",
    oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"),
    [ms("compression.type")],
    "The codec batches are stored with; producer keeps the producer's.",
  ),
  define(
    "compression.zstd.level",
    "int",
    "3",
    between(-131072, 22),
    [ms("compression.zstd.level")],
    "The zstd level when the topic recompresses with zstd.",
  ),
  define(
    "delete.retention.ms",
    "long",
    "86400000",
    atLeast(0),
    [ms("log.cleaner.delete.retention.ms")],
    "How long tombstones stay readable after compaction.",
  ),
  define(
    "file.delete.delay.ms",
    "long",
    "60000",
    atLeast(0),
    [ms("log.segment.delete.delay.ms")],
    "How long a deleted segment's files wait before removal.",
  ),
  define(
    "flush.messages",
    "long",
    LONG_MAX,
    atLeast(1),
    [ms("log.flush.interval.messages")],
    "Messages appended between forced fsyncs.",
  ),
  define(
    "flush.ms",
    "long",
    LONG_MAX,
    atLeast(0),
    [ms("log.flush.interval.ms"), ms("log.flush.scheduler.interval.ms")],
    "Milliseconds between forced fsyncs.",
  ),
  define(
    "follower.replication.throttled.replicas",
    "list",
    "",
    { kind: "throttledReplicas" },
    [],
    "Replicas (partition:broker, or * for all) held to follower.replication.throttled.rate.",
  ),
  define(
    "index.interval.bytes",
    "int",
    "4096",
    atLeast(0),
    [ms("log.index.interval.bytes")],
    "Bytes of log between offset index entries.",
  ),
  define(
    "leader.replication.throttled.replicas",
    "list",
    "",
    { kind: "throttledReplicas" },
    [],
    "Replicas (partition:broker, or * for all) held to leader.replication.throttled.rate.",
  ),
  define(
    "max.compaction.lag.ms",
    "long",
    LONG_MAX,
    atLeast(1),
    [ms("log.cleaner.max.compaction.lag.ms")],
    "The longest a record may stay uncompacted.",
  ),
  define(
    "max.message.bytes",
    "int",
    "1048588",
    atLeast(0),
    [ms("message.max.bytes")],
    "The largest record batch the topic accepts.",
  ),
  // Kafka 3.x's topic configs that 4.0 removed, still accepted and described for the clients
  // and tools that set them. Every batch Sluice stores and serves is v2 (Fetch v4 and up), so
  // Kafka 3.x with inter-broker protocol 3.0 or later ignores the first two as Sluice does.
  define(
    "message.downconversion.enable",
    "boolean",
    "true",
    none,
    [ms("log.message.downconversion.enable")],
    "Kafka 3.x: whether fetches below v4 may get down-converted batches; no effect on v4 and up.",
  ),
  define(
    "message.format.version",
    "string",
    "3.0-IV1",
    { kind: "kafkaVersion" },
    [ms("log.message.format.version")],
    "Kafka 3.x: the record format of old brokers; ignored from protocol 3.0 on.",
  ),
  define(
    "message.timestamp.difference.max.ms",
    "long",
    LONG_MAX,
    atLeast(0),
    [ms("log.message.timestamp.difference.max.ms")],
    "Kafka 3.x: both timestamp bounds at once, where neither newer key is set.",
  ),
  define(
    "message.timestamp.after.max.ms",
    "long",
    "3600000",
    atLeast(0),
    [ms("log.message.timestamp.after.max.ms")],
    "How far ahead of the broker's clock a create timestamp may be.",
  ),
  define(
    "message.timestamp.before.max.ms",
    "long",
    LONG_MAX,
    atLeast(0),
    [ms("log.message.timestamp.before.max.ms")],
    "How far behind the broker's clock a create timestamp may be.",
  ),
  define(
    "message.timestamp.type",
    "string",
    "CreateTime",
    oneOf("CreateTime", "LogAppendTime"),
    [ms("log.message.timestamp.type")],
    "Whether records keep the producer's time or the log's.",
  ),
  define(
    "min.cleanable.dirty.ratio",
    "double",
    "0.5",
    between(0, 1),
    [ms("log.cleaner.min.cleanable.ratio")],
    "The dirty share of the log that triggers compaction.",
  ),
  define(
    "min.compaction.lag.ms",
    "long",
    "0",
    atLeast(0),
    [ms("log.cleaner.min.compaction.lag.ms")],
    "The shortest time a record stays uncompacted.",
  ),
  define(
    "min.insync.replicas",
    "int",
    "1",
    atLeast(1),
    [ms("min.insync.replicas")],
    "In-sync replicas an acks=all write needs.",
  ),
  define(
    "preallocate",
    "boolean",
    "false",
    none,
    [ms("log.preallocate")],
    "Whether new segment files are allocated at full size.",
  ),
  define(
    "retention.bytes",
    "long",
    "-1",
    none,
    [ms("log.retention.bytes")],
    "The most bytes a partition keeps; -1 for no limit.",
  ),
  define(
    "retention.ms",
    "long",
    "604800000",
    atLeast(-1),
    [ms("log.retention.ms"), minutes("log.retention.minutes"), hours("log.retention.hours")],
    "How long records are kept; -1 for ever.",
  ),
  // Kafka 3.x's lower bound (the v0 record overhead); 4.0 raised it to 1 MiB for users but
  // kept the small sizes for its own tests, which Sluice's tests need too.
  define(
    "segment.bytes",
    "int",
    "1073741824",
    atLeast(14),
    [ms("log.segment.bytes")],
    "The size at which a segment is rolled.",
  ),
  define(
    "segment.index.bytes",
    "int",
    "10485760",
    atLeast(4),
    [ms("log.index.size.max.bytes")],
    "The size of a segment's offset and time index files.",
  ),
  define(
    "segment.jitter.ms",
    "long",
    "0",
    atLeast(0),
    [ms("log.roll.jitter.ms"), hours("log.roll.jitter.hours")],
    "The most random delay subtracted from segment.ms, so segments do not roll together.",
  ),
  define(
    "segment.ms",
    "long",
    "604800000",
    atLeast(1),
    [ms("log.roll.ms"), hours("log.roll.hours")],
    "The age at which a segment is rolled.",
  ),
  define(
    "unclean.leader.election.enable",
    "boolean",
    "false",
    none,
    [ms("unclean.leader.election.enable")],
    "Whether a replica outside the ISR may become leader, at the cost of losing records.",
  ),
];

const byName = new Map(TOPIC_CONFIGS.map((definition) => [definition.name, definition]));

/** The definition of a topic config, or undefined for a name Kafka's topics do not have. */
export function topicConfigDefinition(name: string): ConfigDefinition | undefined {
  return byName.get(name);
}
