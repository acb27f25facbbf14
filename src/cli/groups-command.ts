/**
 * `sluice groups list | describe | reset-offsets | delete`: consumer group administration with
 * the options of Kafka's kafka-consumer-groups.sh. `list` asks every broker (each coordinates its
 * own groups) with ListGroups; `delete` sends DeleteGroups to each group's coordinator.
 */
import { ErrorCode, errorName } from "../common/index.js";
import { deleteGroups } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import type { ClusterSession } from "./cluster-session.js";
import {
  printRows,
  runAdminCommand,
  type AdminCommand,
  type AdminIo,
  type AdminOptions,
} from "./admin-command.js";
import { coordinatorOf } from "./consume-group.js";
import { describeGroups } from "./groups-describe.js";
import { listedGroups, requiredGroups } from "./groups-state.js";
import { resetOffsets } from "./groups-reset.js";

export const GROUPS_USAGE =
  "usage: sluice groups list|describe|reset-offsets|delete " +
  "[--bootstrap-server HOST:PORT] [--group ID] [options]";

const GROUPS_HELP = [
  "  list           every group: GROUP, TYPE (classic or consumer), STATE",
  "                 [--state S,...] [--type classic|consumer] keep only those",
  "  describe       --group ID... | --all-groups: per partition CURRENT-OFFSET, LOG-END-OFFSET,",
  "                 LAG, CONSUMER-ID, HOST, CLIENT-ID; --members: the members;",
  "                 --state: coordinator, assignor, state and member count",
  "  reset-offsets  --group ID (--topic T[:P,P...]... | --all-topics) and one of",
  "                 --to-earliest, --to-latest, --to-offset N, --to-datetime",
  "                 YYYY-MM-DDTHH:mm:SS.sss[Z|+HH:MM], --shift-by N; prints the new offsets and",
  "                 changes nothing unless --execute (--dry-run is the default). Only a group",
  "                 without active members (Empty, or not existing yet) can be reset.",
  "  delete         --group ID...: deletes groups without active members and their offsets",
];

export const GROUPS_COMMAND: AdminCommand = {
  name: "groups",
  usage: GROUPS_USAGE,
  help: GROUPS_HELP,
  subcommands: ["list", "describe", "reset-offsets", "delete"],
  options: {
    booleans: [
      "--all-groups",
      "--members",
      "--state-only",
      "--all-topics",
      "--to-earliest",
      "--to-latest",
      "--dry-run",
      "--execute",
    ],
    values: ["--state", "--type", "--to-offset", "--to-datetime", "--shift-by"],
    repeatable: ["--group", "--topic"],
  },
  errorPrefix: "Error: ",
  // Every subcommand prints only once it has all it needs, and a reset commits the same
  // offsets again, so a retriable refusal (a coordinator still loading) retries the whole step.
  isRetried: () => true,
  run: runGroups,
};

/** Runs `sluice groups` with the arguments after `groups`. */
export function groupsCommand(args: readonly string[], io: AdminIo): Promise<number> {
  return runAdminCommand(GROUPS_COMMAND, normaliseArgs(args), io);
}

/**
 * kafka-consumer-groups takes `--state` with or without a value: with `describe` it means the
 * state view, with `list` a filter, so a bare `--state` becomes `--state-only` here. It also
 * takes `--shift-by -N`, which the option parser would read as an option: it becomes
 * `--shift-by=-N`.
 */
function normaliseArgs(args: readonly string[]): string[] {
  const normalised: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    const next = args[index + 1];
    if (arg === "--state" && (next === undefined || next.startsWith("--"))) {
      normalised.push("--state-only");
    } else if (arg === "--shift-by" && next !== undefined && /^-\d+$/.test(next)) {
      normalised.push(`--shift-by=${next}`);
      index += 1;
    } else normalised.push(arg);
  }
  return normalised;
}

async function runGroups(
  subcommand: string,
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  switch (subcommand) {
    case "list":
      return listAllGroups(session, options, io);
    case "describe":
      return describeGroups(session, options, io);
    case "reset-offsets":
      return resetOffsets(session, options, io);
    default:
      return deleteGroupsCommand(session, options, io);
  }
}

async function listAllGroups(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const filter = (name: string): Set<string> | undefined => {
    const text = options.values.get(name);
    return text === undefined
      ? undefined
      : new Set(
          text
            .toLowerCase()
            .split(",")
            .map((s) => s.trim()),
        );
  };
  const states = filter("--state");
  const types = filter("--type");
  const rows = (await listedGroups(session))
    .filter((group) => states === undefined || states.has(group.groupState.toLowerCase()))
    .filter((group) => types === undefined || types.has(group.groupType.toLowerCase()))
    .map((group) => ({ GROUP: group.groupId, TYPE: group.groupType, STATE: group.groupState }));
  printRows(io, options, ["GROUP", "TYPE", "STATE"], rows);
  return EXIT.ok;
}

async function deleteGroupsCommand(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const results: { GROUP: string; RESULT: string }[] = [];
  for (const groupId of requiredGroups(options)) {
    const coordinator = await coordinatorOf(session, groupId);
    const response = await session.send(
      deleteGroups,
      { groupsNames: [groupId] },
      { maxVersion: 2, target: coordinator },
    );
    const errorCode = response.results[0]?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR;
    const RESULT = errorCode === ErrorCode.NONE ? DELETED : deleteProblem(errorCode);
    results.push({ GROUP: groupId, RESULT });
  }
  const deleted = results.filter((result) => result.RESULT === DELETED);
  const failed = results.filter((result) => result.RESULT !== DELETED);
  if (options.booleans.has("--json")) printRows(io, options, ["GROUP", "RESULT"], results);
  else if (deleted.length > 0) {
    const names = deleted.map((result) => `'${result.GROUP}'`).join(", ");
    io.write(`Deletion of requested consumer groups (${names}) was successful.`);
  }
  if (failed.length === 0) return EXIT.ok;
  io.error("Error: Deletion of some consumer groups failed:");
  for (const result of failed) {
    io.error(`* Group '${result.GROUP}' could not be deleted due to: ${result.RESULT}`);
  }
  return EXIT.failed;
}

const DELETED = "deleted";

/** The refusal of one group's deletion and what to do about it. */
function deleteProblem(errorCode: number): string {
  switch (errorCode) {
    case ErrorCode.NON_EMPTY_GROUP:
      return "NON_EMPTY_GROUP: the group has active members; stop its consumers first";
    case ErrorCode.GROUP_ID_NOT_FOUND:
      return "GROUP_ID_NOT_FOUND: no such group (sluice groups list shows the groups)";
    default:
      return errorName(errorCode);
  }
}
