/**
 * `sluice configs describe | alter`: the configs of topics, brokers and groups with the options
 * of Kafka's kafka-configs.sh (`--entity-type`, `--entity-name` or `--entity-default`,
 * `--add-config k=v,...`, `--delete-config k,...`, `--all`). Describe reads DescribeConfigs and
 * shows, as Kafka's tool does, only the configs set dynamically on the entity unless `--all`;
 * alter sends IncrementalAlterConfigs. A broker's own configs are asked of that broker.
 */
import { brokerId, ErrorCode, type BrokerId } from "../common/index.js";
import { describeConfigs, incrementalAlterConfigs } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, printRows, type AdminCommand, type AdminOptions } from "./admin-command.js";
import { listedGroups } from "./groups-state.js";

const CONFIGS_USAGE =
  "usage: sluice configs describe|alter --entity-type topics|brokers|groups " +
  "(--entity-name NAME | --entity-default) [--add-config K=V,...] [--delete-config K,...] [--all]";

/** Each entity type: its DescribeConfigs resource type and the source of its dynamic configs. */
const ENTITY_TYPES = {
  topics: { resourceType: 2, dynamicSource: 1, singular: "topic" },
  brokers: { resourceType: 4, dynamicSource: 2, singular: "broker" },
  groups: { resourceType: 32, dynamicSource: 8, singular: "group" },
} as const;
type EntityType = keyof typeof ENTITY_TYPES;

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

/** IncrementalAlterConfigs' operations. */
const SET = 0;
const DELETE = 1;

export const CONFIGS_COMMAND: AdminCommand = {
  name: "configs",
  usage: CONFIGS_USAGE,
  help: [
    "  describe  the entity's dynamic configs (--all: every config, with its source);",
    "            without --entity-name, every topic, broker (and the default) or group",
    "  alter     --add-config K=V,K2=[A,B] sets, --delete-config K,K2 returns keys to their",
    "            defaults (IncrementalAlterConfigs); --entity-default alters the brokers' default",
  ],
  subcommands: ["describe", "alter"],
  options: {
    booleans: ["--entity-default", "--all"],
    values: ["--entity-type", "--entity-name", "--add-config", "--delete-config"],
  },
  errorPrefix: "Error while executing config command : ",
  isRetried: () => true,
  run: (subcommand, session, options, io) =>
    subcommand === "describe"
      ? describeEntityConfigs(session, options, io)
      : alterEntityConfigs(session, options, io),
};

function entityTypeOf(options: AdminOptions): EntityType {
  const text = options.values.get("--entity-type");
  if (text === "topics" || text === "brokers" || text === "groups") return text;
  const wanted = "--entity-type topics, brokers or groups";
  throw new CommandFailure(
    text === undefined ? `${wanted} is required` : `${wanted}, not "${text}"`,
  );
}

/** The entity named, "" for --entity-default, undefined for every entity of the type. */
function entityNameOf(options: AdminOptions, type: EntityType): string | undefined {
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
async function targetOf(
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

async function describeEntityConfigs(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const type = entityTypeOf(options);
  const named = entityNameOf(options, type);
  const names = named !== undefined ? [named] : await everyEntity(session, type);
  const isAll = options.booleans.has("--all");
  const described = [];
  for (const name of names) {
    const configs = (await entityConfigs(session, type, name)).filter(
      (entry) => isAll || entry.configSource === dynamicSourceOf(type, name),
    );
    described.push({ entityType: type, entityName: name, configs });
  }
  if (isJson(options)) {
    io.write(JSON.stringify(described, null, 2));
    return EXIT.ok;
  }
  for (const { entityName, configs } of described) {
    const singular = ENTITY_TYPES[type].singular;
    io.write(
      entityName === ""
        ? `Default configs for ${type} in the cluster are:`
        : `${isAll ? "All" : "Dynamic"} configs for ${singular} ${entityName} are:`,
    );
    if (configs.length === 0) continue;
    const rows = configs.map((entry) => ({
      NAME: entry.name,
      VALUE: entry.value,
      SOURCE: entry.source,
      SENSITIVE: entry.isSensitive,
      "READ-ONLY": entry.isReadOnly,
    }));
    const lines: string[] = [];
    printRows({ write: (line) => lines.push(line), error: io.error }, options, HEADERS, rows);
    for (const line of lines) io.write(`  ${line}`);
  }
  return EXIT.ok;
}

const HEADERS = ["NAME", "VALUE", "SOURCE", "SENSITIVE", "READ-ONLY"];

function dynamicSourceOf(type: EntityType, name: string): number {
  return type === "brokers" && name === ""
    ? DYNAMIC_DEFAULT_BROKER_CONFIG
    : ENTITY_TYPES[type].dynamicSource;
}

/** Every entity of `type`: the topics, the live brokers and the default (""), or the groups. */
async function everyEntity(session: ClusterSession, type: EntityType): Promise<string[]> {
  if (type === "groups") return (await listedGroups(session)).map((group) => group.groupId);
  const metadata = await session.metadata(type === "topics" ? null : []);
  if (type === "topics") {
    return metadata.topics.map((topic) => topic.name ?? "").sort();
  }
  const ids = metadata.brokers.map((broker) => broker.nodeId).sort((a, b) => a - b);
  return [...ids.map(String), ""];
}

interface ConfigEntry {
  readonly name: string;
  readonly value: string | null;
  readonly source: string;
  readonly configSource: number;
  readonly isSensitive: boolean;
  readonly isReadOnly: boolean;
}

async function entityConfigs(
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

async function alterEntityConfigs(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const type = entityTypeOf(options);
  const name = entityNameOf(options, type);
  if (name === undefined) {
    throw new CommandFailure("--entity-name or --entity-default must be specified for alter");
  }
  const addText = options.values.get("--add-config");
  const sets = addText === undefined ? [] : parseAddConfig(addText);
  const deleteText = options.values.get("--delete-config");
  const deletes = deleteText === undefined ? [] : deleteText.split(",").map((key) => key.trim());
  if (sets.length + deletes.length === 0) {
    throw new CommandFailure("alter needs --add-config K=V,... or --delete-config K,...");
  }
  // As Kafka's tool: deleting a key the entity does not set is a mistake worth stopping for.
  if (deletes.length > 0) {
    const current = await entityConfigs(session, type, name);
    const isSet = (key: string) =>
      current.some(
        (entry) => entry.name === key && entry.configSource === dynamicSourceOf(type, name),
      );
    const invalid = deletes.filter((key) => !isSet(key));
    if (invalid.length > 0) {
      throw kafkaFailure(ErrorCode.INVALID_CONFIG, `Invalid config(s): ${invalid.join(",")}`);
    }
  }
  const resource = {
    resourceType: ENTITY_TYPES[type].resourceType,
    resourceName: name,
    configs: [
      ...sets.map((pair) => ({ ...pair, configOperation: SET })),
      ...deletes.map((key) => ({ name: key, value: null, configOperation: DELETE })),
    ],
  };
  const target = await targetOf(session, type, name);
  const response = await session.send(
    incrementalAlterConfigs,
    { resources: [resource], validateOnly: false },
    { maxVersion: 1, ...(target === undefined ? {} : { target }) },
  );
  const result = response.responses[0];
  if (result === undefined) throw new CommandFailure(`no result for ${type} ${name}`);
  if (result.errorCode !== ErrorCode.NONE)
    throw kafkaFailure(result.errorCode, result.errorMessage);
  io.write(
    name === ""
      ? `Completed updating default config for ${type} in the cluster.`
      : `Completed updating config for ${ENTITY_TYPES[type].singular} ${name}.`,
  );
  return EXIT.ok;
}
