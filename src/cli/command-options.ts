/**
 * A small command-line option parser for the sluice subcommands: `--name value`,
 * `--name=value`, boolean `--flag`s and repeatable options. The tidy rules keep node:util out of
 * src/cli, and the subcommands need no more than this.
 */

/** The options a subcommand accepts. */
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

/** Reads `args` against `spec`; option names include their dashes ("--config"). */
export function parseCommandOptions(args: readonly string[], spec: OptionSpec): ParsedOptions {
  const booleans = new Set<string>();
  const values = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] as string;
    if (!argument.startsWith("--")) {
      positionals.push(argument);
      continue;
    }
    const equals = argument.indexOf("=");
    const name = equals < 0 ? argument : argument.slice(0, equals);
    if (spec.booleans.includes(name)) {
      if (equals >= 0) return { kind: "usage", message: `${name} takes no value` };
      booleans.add(name);
      continue;
    }
    const isRepeatable = spec.repeatable?.includes(name) === true;
    if (!isRepeatable && !spec.values.includes(name)) {
      return { kind: "usage", message: `unknown option ${name}` };
    }
    const value = equals < 0 ? args[++index] : argument.slice(equals + 1);
    if (value === undefined) return { kind: "usage", message: `${name} needs a value` };
    if (isRepeatable) repeated.set(name, [...(repeated.get(name) ?? []), value]);
    else values.set(name, value);
  }
  return { kind: "ok", booleans, values, repeated, positionals };
}

/** Where a subcommand writes: standard output and standard error, one line per call. */
export interface CommandOutput {
  readonly write: (line: string) => void;
  readonly error: (line: string) => void;
}

/** Exit codes of the subcommands: success, a failure of the work, a wrong command line. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
