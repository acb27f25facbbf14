/**
 * The command line of `sluice produce`, read into settings: kafka-console-producer's
 * `--property` names (parse.key, key.separator) and the producer's acks and compression.
 */
import { compressionTypes, type CompressionType } from "../protocol/index.js";
import type { ParsedOptions } from "./command-options.js";

export interface ProducerSettings {
  readonly kind: "ok";
  readonly bootstrap: string | undefined;
  /** `--command-config`: the client properties that secure the connections. */
  readonly commandConfig: string | undefined;
  readonly topic: string;
  /** -1 waits for the whole ISR, 1 for the leader only. */
  readonly acks: -1 | 1;
  readonly partition: number | undefined;
  readonly compression: CompressionType;
  /** Set when each line holds a key: the text between key and value. */
  readonly keySeparator: string | undefined;
  /** Lines per Produce request, at most. */
  readonly batchSize: number;
  readonly requestTimeoutMs: number;
}

type Usage = { readonly kind: "usage"; readonly message: string };
type OkOptions = Extract<ParsedOptions, { kind: "ok" }>;

/** The most lines one request carries; a larger --batch-size is refused. */
const BATCH_SIZE_MAX = 10_000;

/** The settings of a `sluice produce` command line, or why it cannot run. */
export function producerSettings(parsed: OkOptions): ProducerSettings | Usage {
  const topic = parsed.positionals[0] ?? parsed.values.get("--topic");
  if (topic === undefined || parsed.positionals.length > 1) return usage("name one TOPIC");
  const properties = propertiesOf(parsed.repeated.get("--property") ?? [], [
    "parse.key",
    "key.separator",
  ]);
  if (properties.kind === "usage") return properties;
  const acksText = parsed.values.get("--acks") ?? "all";
  // The client waits for every response, and a broker sends none to acks=0.
  if (acksText === "0") return usage("--acks 0 is not supported; use 1 or all");
  if (!["all", "-1", "1"].includes(acksText)) return usage(`--acks "${acksText}" is not all|-1|1`);
  const compressionText =
    parsed.values.get("--compression") ?? parsed.values.get("--compression-codec") ?? "none";
  const compression = compressionTypes.find((type) => type === compressionText);
  if (compression === undefined) return usage(`--compression "${compressionText}" is unknown`);
  const partition = wholeNumber(parsed.values.get("--partition"), "--partition", 0);
  const batchSize = wholeNumber(parsed.values.get("--batch-size") ?? "200", "--batch-size", 1);
  const timeout = wholeNumber(
    parsed.values.get("--request-timeout-ms") ?? "30000",
    "--request-timeout-ms",
    1,
  );
  for (const value of [partition, batchSize, timeout]) if (typeof value === "object") return value;
  if (typeof batchSize === "number" && batchSize > BATCH_SIZE_MAX) {
    return usage(`--batch-size is at most ${BATCH_SIZE_MAX}`);
  }
  const explicitSeparator = parsed.values.get("--key-separator");
  const parseKey = explicitSeparator !== undefined || properties.values.get("parse.key") === "true";
  const separator = explicitSeparator ?? properties.values.get("key.separator") ?? "\t";
  if (parseKey && separator === "") return usage("the key separator is empty");
  return {
    kind: "ok",
    bootstrap: parsed.values.get("--bootstrap-server"),
    commandConfig: parsed.values.get("--command-config"),
    topic,
    acks: acksText === "1" ? 1 : -1,
    partition: typeof partition === "number" ? partition : undefined,
    compression,
    keySeparator: parseKey ? separator : undefined,
    batchSize: typeof batchSize === "number" ? batchSize : 1,
    requestTimeoutMs: typeof timeout === "number" ? timeout : 1,
  };
}

function usage(message: string): Usage {
  return { kind: "usage", message };
}

/** A whole number of at least `minimum`, undefined when absent, or a usage problem. */
export function wholeNumber(
  text: string | undefined,
  name: string,
  minimum: number,
): number | undefined | Usage {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < minimum) {
    return usage(`${name} "${text}" is not a whole number of at least ${minimum}`);
  }
  return value;
}

/** `--property name=value` pairs; a name the command does not read is refused. */
export function propertiesOf(
  texts: readonly string[],
  known: readonly string[],
): { readonly kind: "ok"; readonly values: ReadonlyMap<string, string> } | Usage {
  const values = new Map<string, string>();
  for (const text of texts) {
    const equals = text.indexOf("=");
    const name = equals < 0 ? text : text.slice(0, equals);
    if (equals < 0 || !known.includes(name)) {
      return usage(`--property "${text}": the known properties are ${known.join(", ")}`);
    }
    values.set(name, text.slice(equals + 1));
  }
  return { kind: "ok", values };
}
