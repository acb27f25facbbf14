/**
 * The entities `sluice configs` works on: the entity type and name from the options, every
 * entity of a type, the broker a broker's own configs are asked of, and an entity's configs as
 * DescribeConfigs gives them, with the source that marks a config set dynamically on the entity.
 */
import { brokerId, ErrorCode, type BrokerId } from "../common/index.js";
import { describeConfigs } from "../protocol/index.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import type { AdminOptions } from "./admin-command.js";
import { listedGroups } from "./groups-state.js";

/** Each entity type: its DescribeConfigs resource type and the source of its dynamic configs. */
export const ENTITY_TYPES = {
  topics: { resourceType: 2, dynamicSource: 1, singular: "topic" },
  brokers: { resourceType: 4, dynamicSource: 2, singular: "broker" },
  groups: { resourceType: 32, dynamicSource: 8, singular: "group" },
} as const;
export type EntityType = keyof typeof ENTITY_TYPES;

/** The broker default's source (the entity "" of type brokers). */
const DYNAMIC_DEFAULT_BROKER_CONFIG = 3;

/** DescribeConfigs' configSource values by name, as Kafka's ConfigSource enum. */
const SOURCES = [
  "UNKNOWN",
  "DYNAMIC_TOPIC_CONFIG",
  "DYNAMIC_BROKER_CONFIG",
  "DYNAMIC_DEFAULT_BROKER_CONFIG",
  "STATIC_BROKER_CONFIG",
  "DEFAULT_CONFIG",
  "DYNAMIC_BROKER_LOGGER_CONFIG",
  "CLIENT_METRICS_CONFIG",
  "GROUP_CONFIG",
];

export function entityTypeOf(options: AdminOptions): EntityType {
  const text = options.values.get("--entity-type");
  if (text === "topics" || text === "brokers" || text === "groups") return text;
  const wanted = "--entity-type topics, brokers, groups, users or clients";
  throw new CommandFailure(
    text === undefined ? `${wanted} is required` : `${wanted}, not "${text}"`,
  );
}

/** The entity named, "" for --entity-default, undefined for every entity of the type. */
export function entityNameOf(options: AdminOptions, type: EntityType): string | undefined {
  const name = options.values.get("--entity-name");
  const isDefault = options.booleans.has("--entity-default");
  if (name !== undefined && isDefault) {
    throw new CommandFailure("--entity-name and --entity-default cannot both be given");
  }
  if (isDefault && type !== "brokers") {
    throw new CommandFailure("--entity-default is only for --entity-type brokers");
  }
  if (type === "brokers" && name !== undefined && !/^\d+$/.test(name)) {
    throw new CommandFailure(
      `The entity name for brokers must be a valid integer broker id, found: ${name}`,
    );
  }
  return isDefault ? "" : name;
}

/** Where a broker's own configs are asked: that broker; any broker for the rest. */
export async function targetOf(
  session: ClusterSession,
  type: EntityType,
  name: string,
): Promise<BrokerId | undefined> {
  if (type !== "brokers" || name === "") return undefined;
  const metadata = await session.metadata([]);
  if (!metadata.brokers.some((broker) => broker.nodeId === Number(name))) {
    throw new CommandFailure(`broker ${name} is not a live broker of the cluster`);
  }
  return brokerId(Number(name));
}

export function dynamicSourceOf(type: EntityType, name: string): number {
  return type === "brokers" && name === ""
    ? DYNAMIC_DEFAULT_BROKER_CONFIG
    : ENTITY_TYPES[type].dynamicSource;
}

/** Every entity of `type`: the topics, the live brokers and the default (""), or the groups. */
export async function everyEntity(session: ClusterSession, type: EntityType): Promise<string[]> {
  if (type === "groups") return (await listedGroups(session)).map((group) => group.groupId);
  const metadata = await session.metadata(type === "topics" ? null : []);
  if (type === "topics") {
    return metadata.topics.map((topic) => topic.name ?? "").sort();
  }
  const ids = metadata.brokers.map((broker) => broker.nodeId).sort((a, b) => a - b);
  return [...ids.map(String), ""];
}

export interface ConfigEntry {
  readonly name: string;
  readonly value: string | null;
  readonly source: string;
  readonly configSource: number;
  readonly isSensitive: boolean;
  readonly isReadOnly: boolean;
}

export async function entityConfigs(
  session: ClusterSession,
  type: EntityType,
  name: string,
): Promise<ConfigEntry[]> {
  const resource = { resourceType: ENTITY_TYPES[type].resourceType, resourceName: name };
  const target = await targetOf(session, type, name);
  const response = await session.send(
    describeConfigs,
    {
      resources: [{ ...resource, configurationKeys: null }],
      includeSynonyms: false,
      includeDocumentation: false,
    },
    { maxVersion: 4, ...(target === undefined ? {} : { target }) },
  );
  const result = response.results[0];
  if (result === undefined) throw new CommandFailure(`no configs of ${type} ${name}`);
  if (result.errorCode !== ErrorCode.NONE)
    throw kafkaFailure(result.errorCode, result.errorMessage);
  return result.configs
    .map((entry) => ({
      name: entry.name,
      // A sensitive value is never shown, as Kafka's tool prints it.
      value: entry.isSensitive ? null : entry.value,
      source: SOURCES[entry.configSource] ?? String(entry.configSource),
      configSource: entry.configSource,
      isSensitive: entry.isSensitive,
      isReadOnly: entry.readOnly,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Kafka's `--add-config` list: pairs split at commas outside square brackets, each at its first
 * `=`, the brackets of a list value dropped (`k=[a,b]` sets `a,b`).
 */
export function parseAddConfig(text: string): { name: string; value: string }[] {
  const pairs: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "[") depth += 1;
    if (char === "]") depth = Math.max(0, depth - 1);
    if (char === "," && depth === 0) {
      pairs.push(current);
      current = "";
    } else current += char;
  }
  pairs.push(current);
  return pairs.map((pair) => {
    const equals = pair.indexOf("=");
    const name = pair.slice(0, Math.max(0, equals)).trim();
    if (equals <= 0 || !/^[a-zA-Z0-9._-]+$/.test(name)) {
      throw new CommandFailure(
        `Invalid entity config "${pair}": all configs to be added must be in the format "key=val".`,
      );
    }
    return {
      name,
      value: pair
        .slice(equals + 1)
        .replace(/[[\]]/g, "")
        .trim(),
    };
  });
}
