/**
 * Every configuration key Sluice knows, looked up by name or by environment variable.
 */
import { authorizerDefinitions } from "./definitions-authorizer.js";
import { clusterDefinitions } from "./definitions-cluster.js";
import { groupDefinitions } from "./definitions-group.js";
import { logDefinitions } from "./definitions-log.js";
import { loggingDefinitions } from "./definitions-logging.js";
import { quorumDefinitions } from "./definitions-quorum.js";
import { replicationDefinitions } from "./definitions-replication.js";
import { securityDefinitions } from "./definitions-security.js";
import { transactionDefinitions } from "./definitions-transaction.js";
import type { ConfigDefinition } from "./config-types.js";

/** The prefix of environment variables that set configuration keys. */
export const ENVIRONMENT_PREFIX = "SLUICE_";

/** Every key, sorted by name. */
export const CONFIG_DEFINITIONS: readonly ConfigDefinition[] = [
  ...authorizerDefinitions,
  ...clusterDefinitions,
  ...groupDefinitions,
  ...quorumDefinitions,
  ...logDefinitions,
  ...loggingDefinitions,
  ...replicationDefinitions,
  ...securityDefinitions,
  ...transactionDefinitions,
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const byName = new Map(CONFIG_DEFINITIONS.map((definition) => [definition.name, definition]));

/** The environment variable of a key: `SLUICE_` and the key upper-cased, dots as underscores. */
export function environmentVariableOf(name: string): string {
  return ENVIRONMENT_PREFIX + name.toUpperCase().replaceAll(".", "_");
}

const byVariable = new Map(
  CONFIG_DEFINITIONS.map((definition) => [environmentVariableOf(definition.name), definition]),
);

/** The definition of key `name`, or undefined when Sluice has no such key. */
export function configDefinition(name: string): ConfigDefinition | undefined {
  return byName.get(name);
}

/** The definition set by environment variable `variable`, or undefined for none. */
export function configDefinitionOfVariable(variable: string): ConfigDefinition | undefined {
  return byVariable.get(variable);
}
