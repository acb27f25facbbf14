/**
 * `sluice configs describe | alter`: the configs of topics, brokers and groups with the options
 * of Kafka's kafka-configs.sh (`--entity-type`, `--entity-name` or `--entity-default`,
 * `--add-config k=v,...`, `--delete-config k,...`, `--all`). Describe reads DescribeConfigs and
 * shows, as Kafka's tool does, only the configs set dynamically on the entity unless `--all`;
 * alter sends IncrementalAlterConfigs. A broker's own configs are asked of that broker. Users'
 * and client ids' quotas (`--entity-type users|clients`) go through `configs-quotas.ts`. A user's
 * SCRAM credentials (`SCRAM-SHA-256`/`SCRAM-SHA-512` keys) go through configs-users.ts.
 */
import { ErrorCode } from "../common/index.js";
import { incrementalAlterConfigs } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, printRows, type AdminCommand, type AdminOptions } from "./admin-command.js";
import { alterUserCredentials, describeUserCredentials, type ScramPorts } from "./configs-users.js";
import {
  dynamicSourceOf,
  entityConfigs,
  parseAddConfig,
  entityNameOf,
  entityTypeOf,
  ENTITY_TYPES,
  everyEntity,
  targetOf,
} from "./configs-entity.js";
import { alterQuotas, describeQuotas, isQuotaEntityType } from "./configs-quotas.js";

const CONFIGS_USAGE =
  "usage: sluice configs describe|alter --entity-type topics|brokers|groups|users|clients " +
  "(--entity-name NAME | --entity-default) [--add-config K=V,...] [--delete-config K,...] [--all]";

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
    "  users, clients: quotas (producer_byte_rate, consumer_byte_rate, request_percentage),",
    "            --entity-default for the default one (DescribeClientQuotas, AlterClientQuotas)",
    "  users     also SCRAM credentials: --add-config 'SCRAM-SHA-512=[iterations=8192,password=P]'",
    "            sets one, --delete-config SCRAM-SHA-512 deletes it; describe lists mechanisms",
  ],
  subcommands: ["describe", "alter"],
  options: {
    booleans: ["--entity-default", "--all"],
    values: ["--entity-type", "--entity-name", "--add-config", "--delete-config"],
  },
  errorPrefix: "Error while executing config command : ",
  isRetried: () => true,
  run: (subcommand, session, options, io) => {
    if (options.values.get("--entity-type") === "users") {
      return subcommand === "describe"
        ? describeUser(session, options, io)
        : alterUser(session, options, io);
    }
    return subcommand === "describe"
      ? describeEntityConfigs(session, options, io)
      : alterEntityConfigs(session, options, io);
  },
};

/**
 * A user's quotas, then its SCRAM credentials, as kafka-configs.sh describes a user; with
 * `--json`, one object: `{ "quotas": [...], "credentials": [...] }`.
 */
async function describeUser(session: ClusterSession, options: AdminOptions, io: CommandOutput) {
  if (!isJson(options)) {
    const quotas = await describeEntityConfigs(session, options, io);
    if (quotas !== EXIT.ok) return quotas;
    return describeUserCredentials(session, options, io);
  }
  const captured = { quotas: "", credentials: "" };
  const into = (key: keyof typeof captured): CommandOutput => ({
    ...io,
    write: (line) => (captured[key] += `${line}\n`),
  });
  const quotas = await describeEntityConfigs(session, options, into("quotas"));
  if (quotas !== EXIT.ok) return quotas;
  const credentials = await describeUserCredentials(session, options, into("credentials"));
  if (credentials !== EXIT.ok) return credentials;
  const parse = (text: string): unknown => (text.trim() === "" ? [] : JSON.parse(text));
  const combined = { quotas: parse(captured.quotas), credentials: parse(captured.credentials) };
  io.write(JSON.stringify(combined, null, 2));
  return EXIT.ok;
}

/**
 * Alters a user's SCRAM credentials or its quotas, by the keys named; one command does not do
 * both.
 */
async function alterUser(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput & ScramPorts,
) {
  // The keys named, without the bracketed SCRAM parameters (`[iterations=...,password=...]`).
  const named = [options.values.get("--add-config"), options.values.get("--delete-config")]
    .filter((text) => text !== undefined)
    .join(",")
    .replace(/\[[^\]]*\]/g, "")
    .split(",")
    .map((pair) => (pair.split("=")[0] ?? "").trim())
    .filter((key) => key !== "");
  const scram = named.filter((key) => key.startsWith("SCRAM-"));
  if (scram.length === 0) return alterEntityConfigs(session, options, io);
  if (scram.length < named.length) {
    throw new CommandFailure("SCRAM credentials and quotas cannot be altered in one command");
  }
  return alterUserCredentials(session, options, io, io);
}

async function describeEntityConfigs(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const quotaType = options.values.get("--entity-type");
  if (isQuotaEntityType(quotaType)) return describeQuotas(session, quotaType, options, io);
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

async function alterEntityConfigs(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const addText = options.values.get("--add-config");
  const sets = addText === undefined ? [] : parseAddConfig(addText);
  const deleteText = options.values.get("--delete-config");
  const deletes = deleteText === undefined ? [] : deleteText.split(",").map((key) => key.trim());
  if (sets.length + deletes.length === 0) {
    throw new CommandFailure("alter needs --add-config K=V,... or --delete-config K,...");
  }
  const quotaType = options.values.get("--entity-type");
  if (isQuotaEntityType(quotaType)) {
    return alterQuotas(session, quotaType, options, sets, deletes, io);
  }
  const type = entityTypeOf(options);
  const name = entityNameOf(options, type);
  if (name === undefined) {
    throw new CommandFailure("--entity-name or --entity-default must be specified for alter");
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
