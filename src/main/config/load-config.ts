/**
 * Loading a node's configuration from its sources in Kafka's spirit and Sluice's order of
 * precedence: defaults < a server.properties file (or a preset) < `SLUICE_*` environment
 * variables < `--set KEY=VALUE` flags. Pure: the caller reads the file.
 */
import {
  settingsFromEnvironment,
  settingsFromFile,
  settingsFromFlags,
  settingsFromPreset,
  type SourceReading,
} from "./config-sources.js";
import { resolveValues } from "./config-values.js";
import { buildNodeConfig, type NodeConfigResult } from "./node-config.js";

/** The lowest source above the defaults: a properties file's text, or a named preset. */
export type ConfigBase =
  | { readonly kind: "file"; readonly path: string; readonly text: string }
  | {
      readonly kind: "preset";
      readonly name: string;
      readonly values: Readonly<Record<string, string>>;
    };

/** Everything a node's configuration may come from. */
export interface ConfigInput {
  readonly base?: ConfigBase;
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The `KEY=VALUE` parts of `--set` flags, in command-line order (the last wins). */
  readonly flags?: readonly string[];
}

/**
 * The typed configuration from `input`, or every problem found: unknown keys, values that do
 * not parse or validate, and broken cross-key rules, each naming its key and source.
 */
export function loadNodeConfig(input: ConfigInput): NodeConfigResult {
  const layers: SourceReading[] = [];
  if (input.base?.kind === "file") layers.push(settingsFromFile(input.base.path, input.base.text));
  if (input.base?.kind === "preset") {
    layers.push(settingsFromPreset(input.base.name, input.base.values));
  }
  layers.push(settingsFromEnvironment(input.environment ?? {}));
  layers.push(settingsFromFlags(input.flags ?? []));
  const { values, problems } = resolveValues(layers);
  // Cross-key rules are only meaningful once every single value is sound.
  if (problems.length > 0) return { kind: "invalid", problems };
  return buildNodeConfig(values);
}
