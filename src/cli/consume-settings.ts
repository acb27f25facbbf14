/**
 * The command line of `sluice consume`, read into settings, and the line printed for a record:
 * the fields of Kafka's DefaultMessageFormatter in its order (timestamp, partition, offset, key,
 * value), each asked for with a `print.*` property.
 */
import type { ConsumedRecord } from "./consume-fetch.js";
import type { ParsedOptions } from "./command-options.js";
import { propertiesOf, wholeNumber } from "./produce-settings.js";

export interface ConsumerSettings {
  readonly kind: "ok";
  readonly bootstrap: string | undefined;
  /** `--command-config`: the client properties that secure the connections. */
  readonly commandConfig: string | undefined;
  readonly topic: string;
  readonly partition: number | undefined;
  /** An offset to start at in --partition; "earliest" or "latest"; or undefined for the default. */
  readonly offset: number | "earliest" | "latest" | undefined;
  readonly fromBeginning: boolean;
  readonly maxMessages: number | undefined;
  /** Stop after this long without a record; undefined runs until stopped. */
  readonly timeoutMs: number | undefined;
  readonly group: string | undefined;
  readonly requestTimeoutMs: number;
  readonly print: {
    readonly key: boolean;
    readonly value: boolean;
    readonly partition: boolean;
    readonly offset: boolean;
    readonly timestamp: boolean;
    readonly keySeparator: string;
  };
}

type Usage = { readonly kind: "usage"; readonly message: string };
type OkOptions = Extract<ParsedOptions, { kind: "ok" }>;

const PRINT_PROPERTIES = [
  "print.key",
  "print.value",
  "print.partition",
  "print.offset",
  "print.timestamp",
  "key.separator",
];

/** The settings of a `sluice consume` command line, or why it cannot run. */
export function consumerSettings(parsed: OkOptions): ConsumerSettings | Usage {
  const usage = (message: string): Usage => ({ kind: "usage", message });
  const topic = parsed.positionals[0] ?? parsed.values.get("--topic");
  if (topic === undefined || parsed.positionals.length > 1) return usage("name one TOPIC");
  const properties = propertiesOf(parsed.repeated.get("--property") ?? [], PRINT_PROPERTIES);
  if (properties.kind === "usage") return properties;
  const partition = wholeNumber(parsed.values.get("--partition"), "--partition", 0);
  const maxMessages = wholeNumber(parsed.values.get("--max-messages"), "--max-messages", 1);
  const timeoutMs = wholeNumber(parsed.values.get("--timeout-ms"), "--timeout-ms", 0);
  const requestText = parsed.values.get("--request-timeout-ms") ?? "30000";
  const requestTimeoutMs = wholeNumber(requestText, "--request-timeout-ms", 1);
  for (const value of [partition, maxMessages, timeoutMs, requestTimeoutMs]) {
    if (typeof value === "object") return value;
  }
  const offsetText = parsed.values.get("--offset");
  let offset: ConsumerSettings["offset"];
  if (offsetText === "earliest" || offsetText === "latest") offset = offsetText;
  else if (offsetText !== undefined) {
    const parsedOffset = wholeNumber(offsetText, "--offset", 0);
    if (typeof parsedOffset === "object") return parsedOffset;
    offset = parsedOffset;
  }
  if (offset !== undefined && partition === undefined) {
    return usage("The partition is required when offset is specified.");
  }
  if (offset !== undefined && parsed.booleans.has("--from-beginning")) {
    return usage("Options from-beginning and offset cannot be specified together.");
  }
  const flag = (name: string, fallback: boolean): boolean =>
    (properties.values.get(name) ?? String(fallback)).toLowerCase() === "true";
  return {
    kind: "ok",
    bootstrap: parsed.values.get("--bootstrap-server"),
    commandConfig: parsed.values.get("--command-config"),
    topic,
    partition: typeof partition === "number" ? partition : undefined,
    offset,
    fromBeginning: parsed.booleans.has("--from-beginning"),
    maxMessages: typeof maxMessages === "number" ? maxMessages : undefined,
    timeoutMs: typeof timeoutMs === "number" ? timeoutMs : undefined,
    group: parsed.values.get("--group"),
    requestTimeoutMs: typeof requestTimeoutMs === "number" ? requestTimeoutMs : 30_000,
    print: {
      key: flag("print.key", false),
      value: flag("print.value", true),
      partition: flag("print.partition", false),
      offset: flag("print.offset", false),
      timestamp: flag("print.timestamp", false),
      keySeparator: properties.values.get("key.separator") ?? "\t",
    },
  };
}

const decoder = new TextDecoder();

/** The line kafka-console-consumer prints for `record` with these settings. */
export function formatRecord(settings: ConsumerSettings, consumed: ConsumedRecord): string {
  const { partition, record, timestampType } = consumed;
  const { print } = settings;
  const text = (bytes: Uint8Array | null): string =>
    bytes === null ? "null" : decoder.decode(bytes);
  let line = "";
  if (print.timestamp) {
    const name = timestampType === "logAppendTime" ? "LogAppendTime" : "CreateTime";
    line += `${name}:${record.timestamp}\t`;
  }
  if (print.partition) line += `Partition:${partition}\t`;
  if (print.offset) line += `Offset:${record.offset}\t`;
  if (print.key) line += `${text(record.key)}${print.value ? print.keySeparator : ""}`;
  if (print.value) line += text(record.value);
  return line;
}
