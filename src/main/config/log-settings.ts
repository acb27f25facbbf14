/**
 * The partition log settings, with Kafka's precedence between keys: log.dirs over log.dir,
 * metadata.log.dir defaulting to the first log dir, log.retention.ms over minutes over hours,
 * log.roll.ms over log.roll.hours.
 */
import type { ConfigValues } from "./config-values.js";

/** What happens to a log's old segments. */
export type CleanupPolicy = "compact" | "delete";

/** The log settings a node applies to every partition unless a topic overrides them. */
export interface LogSettings {
  readonly logDirs: readonly string[];
  readonly metadataLogDir: string;
  readonly segmentBytes: number;
  readonly rollMs: number;
  /** -1 keeps data for ever. */
  readonly retentionMs: number;
  /** -1 keeps any amount. */
  readonly retentionBytes: number;
  readonly retentionCheckIntervalMs: number;
  readonly flushIntervalMessages: number;
  /** Undefined when only log.flush.scheduler.interval.ms applies, as in Kafka. */
  readonly flushIntervalMs: number | undefined;
  readonly flushSchedulerIntervalMs: number;
  readonly flushOffsetCheckpointIntervalMs: number;
  readonly flushStartOffsetCheckpointIntervalMs: number;
  readonly cleanupPolicy: readonly CleanupPolicy[];
  readonly cleanerEnable: boolean;
  /** `log.cleaner.backoff.ms`: the cleaner's wait after a pass that cleaned nothing. */
  readonly cleanerBackoffMs: number;
  readonly cleanerDeleteRetentionMs: number;
  readonly cleanerMinCleanableRatio: number;
  readonly indexIntervalBytes: number;
  readonly indexSizeMaxBytes: number;
  readonly segmentDeleteDelayMs: number;
  readonly messageTimestampType: "CreateTime" | "LogAppendTime";
  readonly recoveryThreadsPerDataDir: number;
  readonly producerIdExpirationMs: number;
  /** `sluice.log.max.open.files`, as configured (the node lowers it to fit the process limit). */
  readonly maxOpenFiles: number;
  /** `sluice.log.dir.full.probe.interval.ms`. */
  readonly fullDirProbeIntervalMs: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** The log settings of `values`, or undefined after reporting each broken rule to `problem`. */
export function logSettings(
  values: ConfigValues,
  problem: (key: string, message: string) => void,
): LogSettings | undefined {
  const logDirs = values.listOrNull("log.dirs") ?? [values.string("log.dir")];
  if (logDirs.length === 0) problem(values.isSet("log.dirs") ? "log.dirs" : "log.dir", "is empty");
  const retentionMs = retentionMsOf(values);
  if (retentionMs === 0) {
    problem(retentionKeyOf(values), "must be -1 (unlimited) or at least 1 ms");
  }
  const metadataLogDir = values.stringOrNull("metadata.log.dir") ?? logDirs[0];
  if (
    logDirs.length === 0 ||
    metadataLogDir === undefined ||
    retentionMs < -1 ||
    retentionMs === 0
  ) {
    return undefined;
  }
  return {
    logDirs,
    metadataLogDir,
    segmentBytes: values.number("log.segment.bytes"),
    rollMs: values.numberOrNull("log.roll.ms") ?? values.number("log.roll.hours") * HOUR_MS,
    retentionMs,
    retentionBytes: values.number("log.retention.bytes"),
    retentionCheckIntervalMs: values.number("log.retention.check.interval.ms"),
    flushIntervalMessages: values.number("log.flush.interval.messages"),
    flushIntervalMs: values.numberOrNull("log.flush.interval.ms") ?? undefined,
    flushSchedulerIntervalMs: values.number("log.flush.scheduler.interval.ms"),
    flushOffsetCheckpointIntervalMs: values.number("log.flush.offset.checkpoint.interval.ms"),
    flushStartOffsetCheckpointIntervalMs: values.number(
      "log.flush.start.offset.checkpoint.interval.ms",
    ),
    cleanupPolicy: values.list("log.cleanup.policy") as readonly CleanupPolicy[],
    cleanerEnable: values.boolean("log.cleaner.enable"),
    cleanerBackoffMs: values.number("log.cleaner.backoff.ms"),
    cleanerDeleteRetentionMs: values.number("log.cleaner.delete.retention.ms"),
    cleanerMinCleanableRatio: values.number("log.cleaner.min.cleanable.ratio"),
    indexIntervalBytes: values.number("log.index.interval.bytes"),
    indexSizeMaxBytes: values.number("log.index.size.max.bytes"),
    segmentDeleteDelayMs: values.number("log.segment.delete.delay.ms"),
    messageTimestampType: values.string(
      "log.message.timestamp.type",
    ) as LogSettings["messageTimestampType"],
    recoveryThreadsPerDataDir: values.number("num.recovery.threads.per.data.dir"),
    producerIdExpirationMs: values.number("producer.id.expiration.ms"),
    maxOpenFiles: values.number("sluice.log.max.open.files"),
    fullDirProbeIntervalMs: values.number("sluice.log.dir.full.probe.interval.ms"),
  };
}

/** Kafka's precedence: log.retention.ms, else minutes, else hours; any negative means -1. */
function retentionMsOf(values: ConfigValues): number {
  const millis = values.numberOrNull("log.retention.ms");
  const minutes = values.numberOrNull("log.retention.minutes");
  const ms =
    millis ??
    (minutes !== null ? minutes * MINUTE_MS : values.number("log.retention.hours") * HOUR_MS);
  return ms < 0 ? -1 : ms;
}

function retentionKeyOf(values: ConfigValues): string {
  if (values.numberOrNull("log.retention.ms") !== null) return "log.retention.ms";
  if (values.numberOrNull("log.retention.minutes") !== null) return "log.retention.minutes";
  return "log.retention.hours";
}
