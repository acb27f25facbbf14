/** The options every `sluice topic` subcommand reads, named as kafka-topics.sh names them. */
import type { OptionSpec } from "./command-options.js";
import { ErrorCode } from "../common/index.js";
import { CommandFailure, kafkaFailure } from "./cluster-session.js";

export const TOPIC_OPTIONS: OptionSpec = {
  booleans: ["--if-not-exists", "--if-exists", "--exclude-internal"],
  values: [
    "--bootstrap-server",
    "--topic",
    "--partitions",
    "--replication-factor",
    "--replica-assignment",
    "--command-timeout-ms",
    "--command-config",
  ],
  repeatable: ["--config", "--delete-config"],
};

/** A parsed `sluice topic` command line. */
export interface TopicOptions {
  readonly booleans: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string>;
  readonly repeated: ReadonlyMap<string, readonly string[]>;
}

/** The `--topic` a subcommand cannot do without. */
export function requiredTopic(options: TopicOptions): string {
  const topic = options.values.get("--topic");
  if (topic === undefined || topic === "") throw new CommandFailure("--topic is required");
  return topic;
}

/** A whole number option, or `fallback` when absent. */
export function integerOption(options: TopicOptions, name: string, fallback: number): number {
  const text = options.values.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) {
    throw new CommandFailure(`${name}: "${text}" is not a whole number`);
  }
  return value;
}

/** `--config k=v` pairs, in order. */
export function configPairs(options: TopicOptions): { name: string; value: string }[] {
  return (options.repeated.get("--config") ?? []).map((text) => {
    const equals = text.indexOf("=");
    if (equals <= 0) throw new CommandFailure(`--config "${text}" is not KEY=VALUE`);
    return { name: text.slice(0, equals).trim(), value: text.slice(equals + 1) };
  });
}

/** The one refusal an `--if-exists` or `--if-not-exists` turns into success. */
export interface Tolerated {
  readonly errorCode: number;
  readonly isTolerated: boolean;
}

/** `--if-exists`: a topic that does not exist is no failure. */
export function ifExists(options: TopicOptions): Tolerated {
  const isTolerated = options.booleans.has("--if-exists");
  return { errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, isTolerated };
}

/**
 * Ends the command when the cluster refused topic `name`, unless the refusal is `tolerated`;
 * says whether it was (the command then succeeds without doing anything).
 */
export function wasTolerated(
  result: { readonly errorCode: number; readonly errorMessage: string | null } | undefined,
  name: string,
  tolerated: Tolerated,
): boolean {
  if (result === undefined) throw new CommandFailure(`no result for topic ${name}`);
  if (result.errorCode === tolerated.errorCode && tolerated.isTolerated) return true;
  if (result.errorCode !== ErrorCode.NONE)
    throw kafkaFailure(result.errorCode, result.errorMessage);
  return false;
}
