/**
 * The one option parser of the sluice subcommands, on Node's `util.parseArgs`: `--name value`,
 * `--name=value`, boolean `--flag`s and repeatable options, strict about unknown options.
 */
import { parseArgs } from "node:util";

export interface OptionSpec {
  /** Options without a value. */
  readonly booleans: readonly string[];
  /** Options with one value; given twice, the last wins. */
  readonly values: readonly string[];
  /** Options with a value that may be given many times, kept in order. */
  readonly repeatable?: readonly string[];
}

/** What the command line said, or why it cannot be read. */
export type ParsedOptions =
  | {
      readonly kind: "ok";
      readonly booleans: ReadonlySet<string>;
      readonly values: ReadonlyMap<string, string>;
      readonly repeated: ReadonlyMap<string, readonly string[]>;
      readonly positionals: readonly string[];
    }
  | { readonly kind: "usage"; readonly message: string };

type ParseArgsOptions = Record<string, { type: "boolean" | "string"; multiple?: boolean }>;

/** Reads `args` against `spec`; option names include their dashes ("--config"). */
export function parseCommandOptions(args: readonly string[], spec: OptionSpec): ParsedOptions {
  const options: ParseArgsOptions = {};
  const bare = (name: string): string => name.replace(/^--/, "");
  for (const name of spec.booleans) options[bare(name)] = { type: "boolean" };
  for (const name of spec.values) options[bare(name)] = { type: "string" };
  for (const name of spec.repeatable ?? [])
    options[bare(name)] = { type: "string", multiple: true };
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    if (!isParseArgsError(error)) throw error;
    return { kind: "usage", message: error.message };
  }
  const booleans = new Set<string>();
  const values = new Map<string, string>();
  const repeated = new Map<string, readonly string[]>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === true) booleans.add(`--${name}`);
    else if (typeof value === "string") values.set(`--${name}`, value);
    else if (Array.isArray(value)) repeated.set(`--${name}`, value.map(String));
  }
  return { kind: "ok", booleans, values, repeated, positionals: parsed.positionals };
}

/** The errors parseArgs throws for a command line it refuses (Node's ERR_PARSE_ARGS_*). */
function isParseArgsError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    error instanceof TypeError && typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")
  );
}

/** Where a subcommand writes: standard output and standard error, one line per call. */
export interface CommandOutput {
  readonly write: (line: string) => void;
  readonly error: (line: string) => void;
}

/** Exit codes of the subcommands: success, a failure of the work, a wrong command line. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
