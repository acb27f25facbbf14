/**
 * Gathering raw settings, with where each came from, from the three places a node reads them:
 * a Java properties file, `SLUICE_*` environment variables, and `--set KEY=VALUE` flags.
 */
import { parseProperties } from "../../storage/index.js";
import type { ConfigProblem, ConfigSource } from "./config-types.js";
import { configDefinitionOfVariable, ENVIRONMENT_PREFIX } from "./definitions.js";

/** One key set to some text by one source. */
export interface RawSetting {
  readonly key: string;
  readonly text: string;
  readonly source: ConfigSource;
}

/** Settings read from one source, and the problems met while reading them. */
export interface SourceReading {
  readonly settings: readonly RawSetting[];
  readonly problems: readonly ConfigProblem[];
}

/**
 * The settings of a properties file. Values come from the storage module's properties parser;
 * each key is located at the line where its last definition starts, so messages can name it.
 */
export function settingsFromFile(path: string, text: string): SourceReading {
  const lines = keyLines(text);
  const settings = [...parseProperties(text)].map(([key, value]) => ({
    key,
    text: value,
    source: { kind: "file", path, line: lines.get(key) ?? 0 } as const,
  }));
  return { settings, problems: [] };
}

/** The line (from 1) at which each key's last logical line starts. */
function keyLines(text: string): Map<string, number> {
  const result = new Map<string, number>();
  const physical = text.split(/\r\n|\r|\n/);
  let logical = "";
  let startLine = 0;
  for (const [index, line] of physical.entries()) {
    // A comment line never continues, even when it ends with a backslash.
    if (logical === "" && /^[ \t\f]*[#!]/.test(line)) continue;
    if (logical === "") startLine = index + 1;
    logical += logical === "" ? line : line.trimStart();
    if (/(^|[^\\])(\\\\)*\\$/.test(logical)) {
      logical = logical.slice(0, -1);
      continue;
    }
    for (const key of parseProperties(logical).keys()) result.set(key, startLine);
    logical = "";
  }
  if (logical !== "") for (const key of parseProperties(logical).keys()) result.set(key, startLine);
  return result;
}

/** The settings of every `SLUICE_*` variable in `environment`; other variables are ignored. */
export function settingsFromEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
): SourceReading {
  const settings: RawSetting[] = [];
  const problems: ConfigProblem[] = [];
  for (const variable of Object.keys(environment).sort()) {
    const text = environment[variable];
    if (!variable.startsWith(ENVIRONMENT_PREFIX) || text === undefined) continue;
    const source: ConfigSource = { kind: "environment", variable };
    const definition = configDefinitionOfVariable(variable);
    if (definition === undefined) {
      problems.push({ key: variable, source, message: "names no configuration key" });
    } else {
      settings.push({ key: definition.name, text, source });
    }
  }
  return { settings, problems };
}

/** The settings of `--set KEY=VALUE` flags, given as their `KEY=VALUE` parts. */
export function settingsFromFlags(flags: readonly string[]): SourceReading {
  const settings: RawSetting[] = [];
  const problems: ConfigProblem[] = [];
  for (const flag of flags) {
    const equals = flag.indexOf("=");
    const source: ConfigSource = { kind: "flag", flag };
    if (equals <= 0) {
      problems.push({ key: flag, source, message: "is not KEY=VALUE" });
      continue;
    }
    settings.push({ key: flag.slice(0, equals).trim(), text: flag.slice(equals + 1), source });
  }
  return { settings, problems };
}

/** The settings of a named preset, as if read from a file. */
export function settingsFromPreset(
  name: string,
  values: Readonly<Record<string, string>>,
): SourceReading {
  const settings = Object.entries(values).map(([key, text]) => ({
    key,
    text,
    source: { kind: "preset", name } as const,
  }));
  return { settings, problems: [] };
}
