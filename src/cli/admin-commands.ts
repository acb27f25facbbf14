/**
 * The administration commands by name, for `main`: `acls`, `groups`, `configs`, `elect-leaders`,
 * `reassign`, `log-dirs`, `cluster`, `features` and `transactions`, each an `AdminCommand` run
 * by `runAdminCommand`.
 */
import { runAdminCommand, type AdminCommand, type AdminIo } from "./admin-command.js";
import { ACLS_COMMAND } from "./acls-command.js";
import { CLUSTER_COMMAND } from "./cluster-health.js";
import { CONFIGS_COMMAND } from "./configs-command.js";
import { ELECT_LEADERS_COMMAND } from "./elect-leaders-command.js";
import { FEATURES_COMMAND } from "./features-command.js";
import { LOG_DIRS_COMMAND } from "./log-dirs-command.js";
import { REASSIGN_COMMAND } from "./reassign-command.js";
import { GROUPS_COMMAND, groupsCommand } from "./groups-command.js";
import { TRANSACTIONS_COMMAND } from "./transactions-command.js";

const COMMANDS: ReadonlyMap<string, AdminCommand> = new Map([
  ["acls", ACLS_COMMAND],
  ["groups", GROUPS_COMMAND],
  ["configs", CONFIGS_COMMAND],
  ["elect-leaders", ELECT_LEADERS_COMMAND],
  ["reassign", REASSIGN_COMMAND],
  ["log-dirs", LOG_DIRS_COMMAND],
  ["cluster", CLUSTER_COMMAND],
  ["features", FEATURES_COMMAND],
  ["transactions", TRANSACTIONS_COMMAND],
]);

/** The usage line of each command, for `sluice help`. */
export const ADMIN_USAGES: readonly string[] = [...COMMANDS.values()].map(
  (command) => command.usage,
);

/** Runs the administration command `name` with the arguments after it. */
export function adminCommand(name: string, args: readonly string[], io: AdminIo): Promise<number> {
  if (name === "groups") return groupsCommand(args, io);
  const command = COMMANDS.get(name);
  if (command === undefined) {
    io.error(`sluice: unknown command "${name}"`);
    return Promise.resolve(1);
  }
  return runAdminCommand(command, args, io);
}
