/**
 * What the administration commands (`groups`, `configs`, `elect-leaders`, `reassign`,
 * `log-dirs`, `cluster`) share: the subcommand and `--help`, the options every one of them takes
 * (`--bootstrap-server`, `--command-timeout-ms`, `--command-config`, `--json`), the exit codes,
 * and rows printed
 * either as an aligned table or, with `--json`, as a JSON array.
 */
import type { ClientPorts } from "../client/index.js";
import type { Crypto, FileSystem } from "../ports/index.js";
import {
  EXIT,
  parseCommandOptions,
  type CommandOutput,
  type OptionSpec,
} from "./command-options.js";
import {
  DEFAULT_BOOTSTRAP_SERVER,
  runAgainstCluster,
  type ClusterSession,
} from "./cluster-session.js";
import { formatTable } from "./quorum-describe-format.js";

/** What an administration command writes to and talks through. */
export interface AdminIo extends CommandOutput, ClientPorts {
  /** For the JSON files of `reassign` and `elect-leaders --path-to-json-file`. */
  readonly fileSystem: FileSystem;
  /** For the salted passwords of `configs alter --entity-type users`. */
  readonly crypto?: Crypto | undefined;
}

/** A parsed command line of an administration command. */
export interface AdminOptions {
  readonly booleans: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string>;
  readonly repeated: ReadonlyMap<string, readonly string[]>;
}

/** One administration command: its subcommands, options and what each subcommand does. */
export interface AdminCommand {
  /** The command's words as typed, e.g. "groups". */
  readonly name: string;
  readonly usage: string;
  /** The lines `--help` prints after the usage. */
  readonly help: readonly string[];
  /** The subcommands; empty for a command that has none (`elect-leaders`). */
  readonly subcommands: readonly string[];
  /** The command's own options, beside the shared ones. */
  readonly options: OptionSpec;
  /** What precedes a refusal on standard error, as Kafka's tool words it. */
  readonly errorPrefix: string;
  /** Whether the whole subcommand may run again after a retriable refusal. */
  readonly isRetried: (subcommand: string, options: AdminOptions) => boolean;
  readonly run: (
    subcommand: string,
    session: ClusterSession,
    options: AdminOptions,
    io: AdminIo,
  ) => Promise<number>;
}

const SHARED_HELP =
  `--bootstrap-server HOST:PORT[,...] defaults to ${DEFAULT_BOOTSTRAP_SERVER}; ` +
  "--command-timeout-ms to 30000; --command-config FILE: client properties for TLS and SASL; " +
  "--json prints JSON instead of a table.";

/** Runs `command` with the arguments after its name; returns the exit code. */
export async function runAdminCommand(
  command: AdminCommand,
  args: readonly string[],
  io: AdminIo,
): Promise<number> {
  const hasSubcommand = command.subcommands.length > 0;
  const subcommand = hasSubcommand ? (args[0] ?? "") : "";
  const rest = hasSubcommand ? args.slice(1) : args;
  if (subcommand === "help" || args.includes("--help")) {
    for (const line of [command.usage, ...command.help, SHARED_HELP]) io.write(line);
    return EXIT.ok;
  }
  const spec = command.options;
  const parsed = parseCommandOptions(rest, {
    booleans: [...spec.booleans, "--json"],
    values: [...spec.values, "--bootstrap-server", "--command-timeout-ms", "--command-config"],
    repeatable: spec.repeatable ?? [],
  });
  const isKnown = !hasSubcommand || command.subcommands.includes(subcommand);
  if (!isKnown || parsed.kind === "usage" || parsed.positionals.length > 0) {
    if (subcommand === "") {
      io.error(`sluice ${command.name} needs one of: ${command.subcommands.join(", ")}`);
    } else if (!isKnown) io.error(`unknown ${command.name} command "${subcommand}"`);
    else if (parsed.kind === "usage") io.error(parsed.message);
    else io.error(`unexpected ${parsed.positionals[0]}`);
    io.error(command.usage);
    io.error(`sluice ${command.name} --help lists the options.`);
    return EXIT.usage;
  }
  const timeoutText = parsed.values.get("--command-timeout-ms") ?? "30000";
  const requestTimeoutMs = Number(timeoutText);
  if (
    !/^\d+$/.test(timeoutText) ||
    !Number.isSafeInteger(requestTimeoutMs) ||
    requestTimeoutMs <= 0
  ) {
    io.error(`--command-timeout-ms: "${timeoutText}" is not a positive number`);
    return EXIT.usage;
  }
  const options: AdminOptions = parsed;
  return runAgainstCluster(
    options.values.get("--bootstrap-server"),
    io,
    {
      prefix: command.errorPrefix,
      requestTimeoutMs,
      commandConfig: options.values.get("--command-config"),
    },
    (session) => {
      const step = () => command.run(subcommand, session, options, io);
      return command.isRetried(subcommand, options) ? session.retrying(step) : step();
    },
  );
}

/** A cell of a printed row: a number or text, or null for "-" (a value not known). */
export type Cell = string | number | boolean | null;

/** Prints `rows` as a table with `headers` or, with --json, as a JSON array of objects. */
export function printRows(
  io: CommandOutput,
  options: AdminOptions,
  headers: readonly string[],
  rows: readonly Readonly<Record<string, Cell>>[],
): void {
  if (options.booleans.has("--json")) {
    io.write(JSON.stringify(rows, null, 2));
    return;
  }
  const shown = rows.map((row) =>
    Object.fromEntries(headers.map((header) => [header, row[header] ?? "-"])),
  );
  for (const line of formatTable(shown, headers)) io.write(line);
}

/** Whether --json was given. */
export function isJson(options: AdminOptions): boolean {
  return options.booleans.has("--json");
}
