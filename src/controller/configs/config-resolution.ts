/**
 * Where a config's value comes from. A topic config is taken from the topic, else from the
 * broker configs that supply its default (per broker, then the cluster default "", then the
 * node's static file, for each synonym in turn, most specific synonym first), else from the
 * definition's default. The list of every place a value was found is DescribeConfigs' synonyms.
 */
import { assert } from "../../common/index.js";
import { ConfigResourceType, configResourceKey } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { ConfigSource } from "./config-definition.js";
import type { ConfigDefinition } from "./config-definition.js";

/** The static broker config (the node's file and flags), as key/value text. */
export type StaticBrokerConfig = Readonly<Record<string, string>>;

/** What config values are resolved against. */
export interface ConfigScope {
  readonly image: MetadataImage;
  readonly staticConfig: StaticBrokerConfig;
  /** The broker whose per-broker dynamic configs apply, or undefined for none. */
  readonly brokerId?: number;
}

/** One place a value was found. */
export interface ConfigSynonym {
  readonly name: string;
  readonly value: string | null;
  readonly source: number;
}

/** A config's effective value, its source, and every synonym that holds a value. */
export interface ResolvedConfig {
  readonly name: string;
  readonly value: string | null;
  readonly source: number;
  readonly synonyms: readonly ConfigSynonym[];
}

export function configuredValue(
  image: MetadataImage,
  resource: { readonly type: number; readonly name: string },
  key: string,
): string | undefined {
  return image.configs.resources.get(configResourceKey(resource))?.values.get(key);
}

/** The broker-level synonyms of one broker config name, most specific first. */
function brokerLevels(scope: ConfigScope, name: string): ConfigSynonym[] {
  const found: ConfigSynonym[] = [];
  const broker = ConfigResourceType.BROKER;
  if (scope.brokerId !== undefined) {
    const value = configuredValue(
      scope.image,
      { type: broker, name: String(scope.brokerId) },
      name,
    );
    if (value !== undefined)
      found.push({ name, value, source: ConfigSource.DYNAMIC_BROKER_CONFIG });
  }
  const clusterDefault = configuredValue(scope.image, { type: broker, name: "" }, name);
  if (clusterDefault !== undefined) {
    found.push({ name, value: clusterDefault, source: ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG });
  }
  const staticValue = scope.staticConfig[name];
  if (staticValue !== undefined) {
    found.push({ name, value: staticValue, source: ConfigSource.STATIC_BROKER_CONFIG });
  }
  return found;
}

export function resolveTopicConfig(
  scope: ConfigScope,
  topicName: string,
  definition: ConfigDefinition,
): ResolvedConfig {
  const synonyms: ConfigSynonym[] = [];
  const scales: number[] = [];
  const resource = { type: ConfigResourceType.TOPIC, name: topicName };
  const topicValue = configuredValue(scope.image, resource, definition.name);
  if (topicValue !== undefined) {
    synonyms.push({
      name: definition.name,
      value: topicValue,
      source: ConfigSource.DYNAMIC_TOPIC_CONFIG,
    });
    scales.push(1);
  }
  for (const synonym of definition.brokerSynonyms) {
    for (const level of brokerLevels(scope, synonym.name)) {
      synonyms.push(level);
      scales.push(synonym.scaleMs);
    }
  }
  const last = definition.brokerSynonyms[definition.brokerSynonyms.length - 1];
  const scale = last?.scaleMs ?? 1;
  const defaultValue = inUnit(definition.defaultValue, scale);
  synonyms.push({
    name: last?.name ?? definition.name,
    value: defaultValue,
    source: ConfigSource.DEFAULT_CONFIG,
  });
  scales.push(scale);
  const [first] = synonyms;
  const [firstScale] = scales;
  assert(first !== undefined && firstScale !== undefined, "the default is always a synonym");
  return {
    name: definition.name,
    value: inMs(first.value, firstScale),
    source: first.source,
    synonyms,
  };
}

/** Resolves a broker config for a broker (brokerId in the scope) or the cluster default. */
export function resolveBrokerConfig(
  scope: ConfigScope,
  definition: ConfigDefinition,
): ResolvedConfig {
  const synonyms = brokerLevels(scope, definition.name);
  synonyms.push({
    name: definition.name,
    value: definition.defaultValue,
    source: ConfigSource.DEFAULT_CONFIG,
  });
  const [first] = synonyms;
  assert(first !== undefined, "the default is always a synonym");
  return { name: definition.name, value: first.value, source: first.source, synonyms };
}

/** A value in hours or minutes, in milliseconds; -1 means "for ever" in every unit. */
function inMs(value: string | null, scaleMs: number): string | null {
  if (value === null || scaleMs === 1 || !/^-?\d+$/.test(value.trim())) return value;
  const number = Number(value.trim());
  return number === -1 ? value : String(number * scaleMs);
}

/** A value in milliseconds, in the unit of a synonym (hours, minutes), rounded down. */
function inUnit(value: string | null, scaleMs: number): string | null {
  if (value === null || scaleMs === 1 || !/^-?\d+$/.test(value)) return value;
  const number = Number(value);
  return number === -1 ? value : String(Math.floor(number / scaleMs));
}
