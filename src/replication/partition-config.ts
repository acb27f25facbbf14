/**
 * The configs a partition obeys, resolved as Kafka resolves a topic's configs: the topic's
 * override, else the dynamic broker config of this broker, else the cluster-wide dynamic broker
 * default, else the static broker config (`defaults`, from the node's config file). Broker-level
 * values come under Kafka's synonym names (`log.roll.hours` for `segment.ms`, and so on). Values
 * in the image were validated by the controller; one that does not parse is skipped, leaving the
 * lower level's value, so that no config record can stop a broker.
 */
import { ConfigResourceType, configResourceKey, type MetadataImage } from "../metadata/index.js";
import { NEVER, type LogConfig } from "../storage/index.js";
import type { ProduceRules } from "./produce-validation.js";

/** A topic's configs as the replication layer needs them: the log's plus produce rules. */
export interface PartitionConfig {
  readonly log: LogConfig;
  /** `min.insync.replicas`. */
  readonly minInsyncReplicas: number;
  /** `message.timestamp.before.max.ms`; NEVER for no bound (Kafka's Long.MAX_VALUE). */
  readonly messageTimestampBeforeMaxMs: number;
  /** `message.timestamp.after.max.ms`; Kafka 4.0's default is one hour. */
  readonly messageTimestampAfterMaxMs: number;
}

/** Kafka 4.0's defaults around the given log config. */
export function defaultPartitionConfig(log: LogConfig): PartitionConfig {
  return {
    log,
    minInsyncReplicas: 1,
    messageTimestampBeforeMaxMs: NEVER,
    messageTimestampAfterMaxMs: 3_600_000,
  };
}

type Mutable<T> = { -readonly [Key in keyof T]: T[Key] };
type Draft = Mutable<Omit<PartitionConfig, "log">> & { log: Mutable<LogConfig> };

/** One topic config: its broker synonyms (with their unit in ms) and how it sets the draft. */
interface ConfigKey {
  readonly synonyms: readonly (readonly [name: string, scaleMs: number])[];
  readonly apply: (draft: Draft, value: string, scaleMs: number) => boolean;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** A long: Kafka's Long.MAX_VALUE (and anything past 2^53) is NEVER; undefined when invalid. */
function parseLong(value: string, scaleMs = 1): number | undefined {
  if (!/^-?\d+$/.test(value.trim())) return undefined;
  const parsed = Number(value) * scaleMs;
  return Number.isSafeInteger(parsed) ? parsed : parsed > 0 ? NEVER : undefined;
}

function numberKey(
  synonyms: ConfigKey["synonyms"],
  set: (draft: Draft, value: number) => void,
): ConfigKey {
  return {
    synonyms,
    apply: (draft, value, scaleMs) => {
      const parsed = parseLong(value, scaleMs);
      if (parsed !== undefined) set(draft, parsed);
      return parsed !== undefined;
    },
  };
}

function cleanupPolicyKey(): ConfigKey {
  return {
    synonyms: [["log.cleanup.policy", 1]],
    apply: (draft, value) => {
      const policies = value.split(",").map((part) => part.trim().toLowerCase());
      if (!policies.every((policy) => policy === "delete" || policy === "compact")) return false;
      const compact = policies.includes("compact");
      draft.log.cleanupPolicy = { delete: policies.includes("delete"), compact };
      return true;
    },
  };
}

const KEYS: ReadonlyMap<string, ConfigKey> = new Map<string, ConfigKey>([
  ["segment.bytes", numberKey([["log.segment.bytes", 1]], (d, v) => (d.log.segmentBytes = v))],
  [
    "segment.ms",
    numberKey(
      [
        ["log.roll.ms", 1],
        ["log.roll.hours", HOUR_MS],
      ],
      (d, v) => (d.log.segmentMs = v),
    ),
  ],
  [
    "segment.jitter.ms",
    numberKey(
      [
        ["log.roll.jitter.ms", 1],
        ["log.roll.jitter.hours", HOUR_MS],
      ],
      (d, v) => (d.log.segmentJitterMs = v),
    ),
  ],
  [
    "segment.index.bytes",
    numberKey([["log.index.size.max.bytes", 1]], (d, v) => (d.log.segmentIndexBytes = v)),
  ],
  [
    "index.interval.bytes",
    numberKey([["log.index.interval.bytes", 1]], (d, v) => (d.log.indexIntervalBytes = v)),
  ],
  [
    "flush.messages",
    numberKey([["log.flush.interval.messages", 1]], (d, v) => (d.log.flushMessages = v)),
  ],
  [
    "flush.ms",
    numberKey(
      [
        ["log.flush.interval.ms", 1],
        ["log.flush.scheduler.interval.ms", 1],
      ],
      (d, v) => (d.log.flushMs = v),
    ),
  ],
  [
    "retention.ms",
    numberKey(
      [
        ["log.retention.ms", 1],
        ["log.retention.minutes", MINUTE_MS],
        ["log.retention.hours", HOUR_MS],
      ],
      (d, v) => (d.log.retentionMs = v),
    ),
  ],
  [
    "retention.bytes",
    numberKey([["log.retention.bytes", 1]], (d, v) => (d.log.retentionBytes = v)),
  ],
  [
    "delete.retention.ms",
    numberKey([["log.cleaner.delete.retention.ms", 1]], (d, v) => (d.log.deleteRetentionMs = v)),
  ],
  [
    "min.compaction.lag.ms",
    numberKey([["log.cleaner.min.compaction.lag.ms", 1]], (d, v) => (d.log.minCompactionLagMs = v)),
  ],
  [
    "file.delete.delay.ms",
    numberKey([["log.segment.delete.delay.ms", 1]], (d, v) => (d.log.fileDeleteDelayMs = v)),
  ],
  [
    "max.message.bytes",
    numberKey([["message.max.bytes", 1]], (d, v) => (d.log.maxMessageBytes = v)),
  ],
  [
    "min.insync.replicas",
    numberKey([["min.insync.replicas", 1]], (d, v) => (d.minInsyncReplicas = v)),
  ],
  [
    "message.timestamp.before.max.ms",
    numberKey(
      [["log.message.timestamp.before.max.ms", 1]],
      (d, v) => (d.messageTimestampBeforeMaxMs = v),
    ),
  ],
  [
    "message.timestamp.after.max.ms",
    numberKey(
      [["log.message.timestamp.after.max.ms", 1]],
      (d, v) => (d.messageTimestampAfterMaxMs = v),
    ),
  ],
  ["cleanup.policy", cleanupPolicyKey()],
  [
    "min.cleanable.dirty.ratio",
    {
      synonyms: [["log.cleaner.min.cleanable.ratio", 1]],
      apply: (draft, value) => {
        const ratio = Number(value);
        if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) return false;
        draft.log.minCleanableDirtyRatio = ratio;
        return true;
      },
    },
  ],
  [
    "message.timestamp.type",
    {
      synonyms: [["log.message.timestamp.type", 1]],
      apply: (draft, value) => {
        if (value !== "CreateTime" && value !== "LogAppendTime") return false;
        draft.log.messageTimestampType = value;
        return true;
      },
    },
  ],
]);

/**
 * Kafka 3.x's `message.timestamp.difference.max.ms`, removed in 4.0: where it is set and the
 * newer keys are not, it bounds both directions, as Kafka 3.6 to 3.9 read it.
 */
const DIFFERENCE_KEY = "message.timestamp.difference.max.ms";
const DIFFERENCE_SYNONYM = "log.message.timestamp.difference.max.ms";

/** One level of the resolution: the names it may use and how it names each key. */
interface Level {
  readonly values: ReadonlyMap<string, string> | undefined;
  readonly isTopic: boolean;
}

function levelsOf(image: MetadataImage, topic: string, brokerId: number): Level[] {
  const valuesOf = (type: number, name: string): ReadonlyMap<string, string> | undefined => {
    const configs = image.configs.resources.get(configResourceKey({ type, name }));
    return configs === undefined ? undefined : new Map(configs.values);
  };
  return [
    { values: valuesOf(ConfigResourceType.BROKER, ""), isTopic: false },
    { values: valuesOf(ConfigResourceType.BROKER, String(brokerId)), isTopic: false },
    { values: valuesOf(ConfigResourceType.TOPIC, topic), isTopic: true },
  ];
}

/** Applies one level to the draft; true when it set the before or after bound. */
function applyLevel(draft: Draft, level: Level): boolean {
  const values = level.values;
  if (values === undefined) return false;
  let isBoundSet = false;
  for (const [topicKey, key] of KEYS) {
    const names: ConfigKey["synonyms"] = level.isTopic ? [[topicKey, 1]] : key.synonyms;
    const found = names.find(([name]) => values.has(name));
    if (found === undefined) continue;
    const applied = key.apply(draft, values.get(found[0]) as string, found[1]);
    if (applied && topicKey.startsWith("message.timestamp.") && topicKey.endsWith("max.ms")) {
      isBoundSet = true;
    }
  }
  return isBoundSet;
}

/** The configs of `topic` on broker `brokerId`, given the static broker `defaults`. */
export function partitionConfigOf(
  image: MetadataImage,
  topic: string,
  options: { readonly defaults: PartitionConfig; readonly brokerId: number },
): PartitionConfig {
  const draft: Draft = { ...options.defaults, log: { ...options.defaults.log } };
  let isBoundSet = false;
  let difference: number | undefined;
  for (const level of levelsOf(image, topic, options.brokerId)) {
    if (applyLevel(draft, level)) isBoundSet = true;
    const raw = level.values?.get(level.isTopic ? DIFFERENCE_KEY : DIFFERENCE_SYNONYM);
    const parsed = raw === undefined ? undefined : parseLong(raw);
    if (parsed !== undefined) difference = parsed;
  }
  if (difference !== undefined && !isBoundSet) {
    draft.messageTimestampBeforeMaxMs = difference;
    draft.messageTimestampAfterMaxMs = difference;
  }
  return draft;
}

/** The produce rules of a topic's configs. */
export function produceRulesOf(config: PartitionConfig): ProduceRules {
  return {
    maxMessageBytes: config.log.maxMessageBytes,
    messageTimestampType: config.log.messageTimestampType,
    messageTimestampBeforeMaxMs: config.messageTimestampBeforeMaxMs,
    messageTimestampAfterMaxMs: config.messageTimestampAfterMaxMs,
    isCompacted: config.log.cleanupPolicy.compact,
  };
}
