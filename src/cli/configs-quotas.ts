/**
 * `sluice configs` for client quotas, as kafka-configs.sh does them: `--entity-type users` or
 * `clients` with `--entity-name` or `--entity-default` (the default user or client id).
 * Describe asks DescribeClientQuotas for the entities of exactly that type (one name, the
 * default, or every one without a name); alter sends AlterClientQuotas, `--add-config` setting
 * and `--delete-config` removing quota keys.
 */
import { ErrorCode } from "../common/index.js";
import { alterClientQuotas, describeClientQuotas } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, type AdminOptions } from "./admin-command.js";

/** The quota entity types of kafka-configs.sh and their ClientQuotaEntity types. */
export const QUOTA_ENTITY_TYPES = {
  users: { entityType: "user", shown: "user-principal" },
  clients: { entityType: "client-id", shown: "client-id" },
} as const;
export type QuotaEntityType = keyof typeof QUOTA_ENTITY_TYPES;

/** DescribeClientQuotas' match types. */
const MATCH_EXACT = 0;
const MATCH_DEFAULT = 1;
const MATCH_SPECIFIED = 2;

export function isQuotaEntityType(text: string | undefined): text is QuotaEntityType {
  return text === "users" || text === "clients";
}

/** The entity's name: a string, null for --entity-default, undefined for every entity. */
function quotaEntityNameOf(options: AdminOptions): string | null | undefined {
  const name = options.values.get("--entity-name");
  const isDefault = options.booleans.has("--entity-default");
  if (name !== undefined && isDefault) {
    throw new CommandFailure("--entity-name and --entity-default cannot both be given");
  }
  return isDefault ? null : name;
}

function shownEntity(type: QuotaEntityType, name: string | null): string {
  const { shown } = QUOTA_ENTITY_TYPES[type];
  return name === null ? `the default ${shown}` : `${shown} '${name}'`;
}

export async function describeQuotas(
  session: ClusterSession,
  type: QuotaEntityType,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const name = quotaEntityNameOf(options);
  const { entityType } = QUOTA_ENTITY_TYPES[type];
  const matchType =
    name === undefined ? MATCH_SPECIFIED : name === null ? MATCH_DEFAULT : MATCH_EXACT;
  const response = await session.send(
    describeClientQuotas,
    { components: [{ entityType, matchType, match: name ?? null }], strict: true },
    { maxVersion: 1 },
  );
  if (response.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(response.errorCode, response.errorMessage);
  }
  const described = (response.entries ?? []).map((entry) => ({
    entityName: entry.entity[0]?.entityName ?? null,
    quotas: Object.fromEntries(entry.values.map(({ key, value }) => [key, value])),
  }));
  if (isJson(options)) {
    io.write(JSON.stringify(described, null, 2));
    return EXIT.ok;
  }
  for (const { entityName, quotas } of described) {
    const values = Object.entries(quotas).map(([key, value]) => `${key}=${value}`);
    io.write(`Quota configs for ${shownEntity(type, entityName)} are ${values.join(", ")}`);
  }
  return EXIT.ok;
}

export async function alterQuotas(
  session: ClusterSession,
  type: QuotaEntityType,
  options: AdminOptions,
  sets: readonly { readonly name: string; readonly value: string }[],
  deletes: readonly string[],
  io: CommandOutput,
): Promise<number> {
  const name = quotaEntityNameOf(options);
  if (name === undefined) {
    throw new CommandFailure("--entity-name or --entity-default must be specified for alter");
  }
  const ops = [
    ...sets.map((pair) => ({ key: pair.name, value: quotaValueOf(pair), remove: false })),
    ...deletes.map((key) => ({ key, value: 0, remove: true })),
  ];
  const entity = [{ entityType: QUOTA_ENTITY_TYPES[type].entityType, entityName: name }];
  const response = await session.send(
    alterClientQuotas,
    { entries: [{ entity, ops }], validateOnly: false },
    { maxVersion: 1 },
  );
  const result = response.entries[0];
  if (result === undefined) throw new CommandFailure(`no result for ${shownEntity(type, name)}`);
  if (result.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(result.errorCode, result.errorMessage);
  }
  io.write(`Completed updating config for ${shownEntity(type, name)}.`);
  return EXIT.ok;
}

function quotaValueOf(pair: { readonly name: string; readonly value: string }): number {
  const value = Number(pair.value);
  if (pair.value === "" || !Number.isFinite(value)) {
    throw new CommandFailure(`Invalid value "${pair.value}" for quota ${pair.name}`);
  }
  return value;
}
