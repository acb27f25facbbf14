/**
 * `sluice configs describe | alter`: the configs of topics, brokers and groups with the options
 * of Kafka's kafka-configs.sh (`--entity-type`, `--entity-name` or `--entity-default`,
 * `--add-config k=v,...`, `--delete-config k,...`, `--all`). Describe reads DescribeConfigs and
 * shows, as Kafka's tool does, only the configs set dynamically on the entity unless `--all`;
 * alter sends IncrementalAlterConfigs. A broker's own configs are asked of that broker. Users'
 * SCRAM credentials are configs-users.ts.
 */
import { ErrorCode } from "../common/index.js";
import { incrementalAlterConfigs } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, printRows, type AdminCommand, type AdminOptions } from "./admin-command.js";
import { alterUserCredentials, describeUserCredentials } from "./configs-users.js";
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

const CONFIGS_USAGE =
  "usage: sluice configs describe|alter --entity-type topics|brokers|groups|users " +
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
    "  users     SCRAM credentials: --add-config 'SCRAM-SHA-512=[iterations=8192,password=P]'",
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
        ? describeUserCredentials(session, options, io)
        : alterUserCredentials(session, options, io, io);
    }
    return subcommand === "describe"
      ? describeEntityConfigs(session, options, io)
      : alterEntityConfigs(session, options, io);
  },
};

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
