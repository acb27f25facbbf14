/**
 * The resolved value of every key, with the source that set it: layers of raw settings applied
 * in order (defaults, then a file or preset, then the environment, then flags), each value
 * parsed and validated on the way.
 */
import { assert } from "../../common/index.js";
import type { ConfigProblem, ConfigSource, ConfigValue } from "./config-types.js";
import type { SourceReading } from "./config-sources.js";
import { CONFIG_DEFINITIONS, configDefinition } from "./definitions.js";
import { listenerScopedDefinition } from "./listener-scoped.js";
import { parseConfigValue } from "./parse-value.js";

export interface ResolvedValue {
  readonly value: ConfigValue;
  readonly source: ConfigSource;
}

/** Every key's value; getters check the type the definition promises. */
export class ConfigValues {
  constructor(
    private readonly entries: ReadonlyMap<string, ResolvedValue>,
    /** `listener.name.<listener>.…` settings, by their full key. */
    private readonly scoped: ReadonlyMap<string, ResolvedValue> = new Map(),
  ) {}

  /**
   * The values as listener `listener` sees them: `listener.name.<listener>.<key>` where it is
   * set, the plain key otherwise, as Kafka resolves listener overrides.
   */
  forListener(listener: string): ConfigValues {
    const prefix = `listener.name.${listener.toLowerCase()}.`;
    const entries = new Map(this.entries);
    for (const [key, value] of this.scoped) {
      const rest = key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
      if (rest !== undefined && entries.has(rest)) entries.set(rest, value);
    }
    return new ConfigValues(entries, this.scoped);
  }

  /** The text of `listener.name.<listener>.<mechanism>.<key>`, or null when unset. */
  mechanismValue(listener: string, mechanism: string, key: string): ResolvedValue | undefined {
    return this.scoped.get(
      `listener.name.${listener.toLowerCase()}.${mechanism.toLowerCase()}.${key}`,
    );
  }

  /** Every key with its value and source, sorted by key. */
  all(): ReadonlyMap<string, ResolvedValue> {
    return this.entries;
  }

  source(key: string): ConfigSource {
    const scoped = this.entries.has(key) ? undefined : this.scoped.get(key);
    if (scoped !== undefined) return scoped.source;
    // A listener's or mechanism's key that is not set (a JAAS entry a problem asks for).
    if (!this.entries.has(key) && key.startsWith("listener.name.")) return { kind: "default" };
    return this.entry(key).source;
  }

  /** True when some source set `key` rather than its default. */
  isSet(key: string): boolean {
    return this.entry(key).source.kind !== "default";
  }

  /** The number value of an int, long or double key; null when it has no value. */
  numberOrNull(key: string): number | null {
    const value = this.entry(key).value;
    assert(value === null || typeof value === "number", `${key} is numeric`);
    return value;
  }

  /** The number value of a key that always has one. */
  number(key: string): number {
    const value = this.numberOrNull(key);
    assert(value !== null, `${key} has a value`);
    return value;
  }

  boolean(key: string): boolean {
    const value = this.entry(key).value;
    assert(typeof value === "boolean", `${key} is a boolean`);
    return value;
  }

  stringOrNull(key: string): string | null {
    const value = this.entry(key).value;
    assert(value === null || typeof value === "string", `${key} is a string`);
    return value;
  }

  string(key: string): string {
    const value = this.stringOrNull(key);
    assert(value !== null, `${key} has a value`);
    return value;
  }

  listOrNull(key: string): readonly string[] | null {
    const value = this.entry(key).value;
    assert(value === null || Array.isArray(value), `${key} is a list`);
    return value as readonly string[] | null;
  }

  list(key: string): readonly string[] {
    return this.listOrNull(key) ?? [];
  }

  private entry(key: string): ResolvedValue {
    const entry = this.entries.get(key);
    assert(entry !== undefined, `${key} is a defined configuration key`);
    return entry;
  }
}

/** The values after applying `layers` in order over the defaults, or the problems found. */
export function resolveValues(layers: readonly SourceReading[]): {
  readonly values: ConfigValues;
  readonly problems: readonly ConfigProblem[];
} {
  const entries = new Map<string, ResolvedValue>();
  for (const definition of CONFIG_DEFINITIONS) {
    entries.set(definition.name, { value: definition.defaultValue, source: { kind: "default" } });
  }
  const problems: ConfigProblem[] = [];
  const scoped = new Map<string, ResolvedValue>();
  for (const layer of layers) {
    problems.push(...layer.problems);
    for (const setting of layer.settings) {
      const definition = configDefinition(setting.key);
      const scopedDefinition =
        definition === undefined ? listenerScopedDefinition(setting.key) : undefined;
      const target = definition === undefined ? scoped : entries;
      const known = definition ?? scopedDefinition;
      if (known === undefined) {
        problems.push({ key: setting.key, source: setting.source, message: "is not a known key" });
        continue;
      }
      const parsed = parseConfigValue(known, setting.text);
      if (parsed.ok) target.set(setting.key, { value: parsed.value, source: setting.source });
      else problems.push({ key: setting.key, source: setting.source, message: parsed.message });
    }
  }
  return { values: new ConfigValues(entries, scoped), problems };
}
