/**
 * `sluice acls list | create | delete`: the ACLs of the cluster with the options of Kafka's
 * kafka-acls.sh (`--topic`, `--group`, `--transactional-id`, `--cluster`,
 * `--resource-pattern-type`, `--allow-principal`, `--deny-principal`, `--allow-host`,
 * `--deny-host`, `--operation`). List reads DescribeAcls, create sends CreateAcls (one ACL per
 * principal, host and operation), delete sends DeleteAcls with one filter per principal and
 * operation given (any when none is).
 */
import { ErrorCode } from "../common/index.js";
import {
  AclOperation,
  AclPatternType,
  AclPermissionType,
  AclResourceType,
  CLUSTER_RESOURCE_NAME,
  aclCodeName,
  aclCodeOf,
} from "../metadata/index.js";
import { createAcls, deleteAcls, describeAcls } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, type AdminCommand, type AdminOptions } from "./admin-command.js";

const ACLS_USAGE =
  "usage: sluice acls list|create|delete [--topic T | --group G | --transactional-id ID | " +
  "--cluster] [--resource-pattern-type literal|prefixed|match|any] " +
  "[--allow-principal P]... [--deny-principal P]... [--allow-host H] [--deny-host H] " +
  "[--operation OP]...";

export const ACLS_COMMAND: AdminCommand = {
  name: "acls",
  usage: ACLS_USAGE,
  help: [
    "  list    the ACLs of the resource given (all without one) and of --principal if given",
    "  create  ALLOW for each --allow-principal and DENY for each --deny-principal, on each",
    "          --operation (read, write, create, delete, alter, describe, cluster-action,",
    "          describe-configs, alter-configs, idempotent-write, all), from --allow-host or",
    "          --deny-host (default *); --resource-pattern-type literal (default) or prefixed",
    "  delete  the ACLs matching the resource, principals, hosts and operations given",
  ],
  subcommands: ["list", "create", "delete"],
  options: {
    booleans: ["--cluster"],
    values: [
      ...["--topic", "--group", "--transactional-id", "--resource-pattern-type"],
      ...["--allow-host", "--deny-host", "--principal"],
    ],
    repeatable: ["--allow-principal", "--deny-principal", "--operation"],
  },
  errorPrefix: "Error while executing ACL command: ",
  isRetried: (subcommand) => subcommand === "list",
  run: (subcommand, session, options, io) => {
    if (subcommand === "list") return listAcls(session, options, io);
    if (subcommand === "create") return createEach(session, options, io);
    return deleteMatching(session, options, io);
  },
};

/** The resource the options name, or undefined when none is named. */
function resourceOf(options: AdminOptions) {
  const named = [
    ["--topic", AclResourceType.TOPIC],
    ["--group", AclResourceType.GROUP],
    ["--transactional-id", AclResourceType.TRANSACTIONAL_ID],
  ] as const;
  const resources: { resourceType: number; resourceName: string }[] = named.flatMap(
    ([option, resourceType]) => {
      const name = options.values.get(option);
      return name === undefined ? [] : [{ resourceType, resourceName: name }];
    },
  );
  if (options.booleans.has("--cluster")) {
    resources.push({ resourceType: AclResourceType.CLUSTER, resourceName: CLUSTER_RESOURCE_NAME });
  }
  if (resources.length > 1) throw new CommandFailure("name at most one resource");
  return resources[0];
}

function patternTypeOf(options: AdminOptions, fallback: number): number {
  const text = options.values.get("--resource-pattern-type");
  if (text === undefined) return fallback;
  const code = aclCodeOf(AclPatternType, text);
  if (code === undefined || code === AclPatternType.UNKNOWN) {
    throw new CommandFailure(`unknown --resource-pattern-type "${text}"`);
  }
  return code;
}

function operationsOf(options: AdminOptions): number[] {
  return (options.repeated.get("--operation") ?? []).map((text) => {
    const code = aclCodeOf(AclOperation, text);
    if (code === undefined || code <= AclOperation.ANY) {
      throw new CommandFailure(`unknown --operation "${text}"`);
    }
    return code;
  });
}

/** Each principal given with its permission type and host. */
function principalsOf(options: AdminOptions) {
  const of = (option: string, hostOption: string, permissionType: number) =>
    (options.repeated.get(option) ?? []).map((principal) => ({
      principal,
      permissionType,
      host: options.values.get(hostOption) ?? "*",
    }));
  return [
    ...of("--allow-principal", "--allow-host", AclPermissionType.ALLOW),
    ...of("--deny-principal", "--deny-host", AclPermissionType.DENY),
  ];
}

function aclText(acl: {
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
}): string {
  const operation = aclCodeName(AclOperation, acl.operation);
  const permission = aclCodeName(AclPermissionType, acl.permissionType);
  const entry = `principal=${acl.principal}, host=${acl.host}`;
  return `(${entry}, operation=${operation}, permissionType=${permission})`;
}

function patternText(resource: {
  resourceType: number;
  resourceName: string;
  patternType: number;
}): string {
  const type = aclCodeName(AclResourceType, resource.resourceType);
  const pattern = aclCodeName(AclPatternType, resource.patternType);
  const named = `resourceType=${type}, name=${resource.resourceName}`;
  return `ResourcePattern(${named}, patternType=${pattern})`;
}

async function listAcls(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const resource = resourceOf(options);
  const filter = {
    resourceTypeFilter: resource?.resourceType ?? AclResourceType.ANY,
    resourceNameFilter: resource?.resourceName ?? null,
    patternTypeFilter: patternTypeOf(
      options,
      resource === undefined ? AclPatternType.ANY : AclPatternType.LITERAL,
    ),
    principalFilter: options.values.get("--principal") ?? null,
    hostFilter: null,
    operation: AclOperation.ANY,
    permissionType: AclPermissionType.ANY,
  };
  const response = await session.send(describeAcls, filter, { maxVersion: 3 });
  if (response.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(response.errorCode, response.errorMessage);
  }
  if (isJson(options)) {
    io.write(JSON.stringify(response.resources, null, 2));
    return EXIT.ok;
  }
  for (const described of response.resources) {
    io.write(`Current ACLs for resource \`${patternText(described)}\`:`);
    for (const acl of described.acls) io.write(` \t${aclText(acl)}`);
    io.write("");
  }
  return EXIT.ok;
}

async function createEach(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const resource = resourceOf(options);
  if (resource === undefined) throw new CommandFailure("create needs a resource");
  const principals = principalsOf(options);
  const operations = operationsOf(options);
  if (principals.length === 0 || operations.length === 0) {
    throw new CommandFailure("create needs --allow-principal or --deny-principal and --operation");
  }
  const resourcePatternType = patternTypeOf(options, AclPatternType.LITERAL);
  const creations = principals.flatMap((entry) =>
    operations.map((operation) => ({ ...resource, resourcePatternType, ...entry, operation })),
  );
  const response = await session.send(createAcls, { creations }, { maxVersion: 3 });
  const failed = response.results.find((result) => result.errorCode !== ErrorCode.NONE);
  if (failed !== undefined) throw kafkaFailure(failed.errorCode, failed.errorMessage);
  const pattern = { ...resource, patternType: resourcePatternType };
  io.write(`Adding ACLs for resource \`${patternText(pattern)}\`:`);
  for (const creation of creations) io.write(` \t${aclText(creation)}`);
  return EXIT.ok;
}

async function deleteMatching(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const resource = resourceOf(options);
  if (resource === undefined) throw new CommandFailure("delete needs a resource");
  const patternTypeFilter = patternTypeOf(options, AclPatternType.LITERAL);
  const principals = principalsOf(options);
  const operations = operationsOf(options);
  const entries =
    principals.length === 0
      ? [{ principal: null, host: null, permissionType: AclPermissionType.ANY }]
      : principals;
  const filters = entries.flatMap((entry) =>
    (operations.length === 0 ? [AclOperation.ANY] : operations).map((operation) => ({
      resourceTypeFilter: resource.resourceType,
      resourceNameFilter: resource.resourceName,
      patternTypeFilter,
      principalFilter: entry.principal,
      hostFilter: entry.host,
      operation,
      permissionType: entry.permissionType,
    })),
  );
  const response = await session.send(deleteAcls, { filters }, { maxVersion: 3 });
  for (const result of response.filterResults) {
    if (result.errorCode !== ErrorCode.NONE) {
      throw kafkaFailure(result.errorCode, result.errorMessage);
    }
    for (const acl of result.matchingAcls) {
      io.write(`Removed ${aclText(acl)} from \`${patternText(acl)}\``);
    }
  }
  return EXIT.ok;
}
