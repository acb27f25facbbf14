/**
 * How a config key is described and checked: its type, default, the rule its values follow, and
 * (for topic configs) the broker configs that supply its default. The numbers of ConfigType and
 * ConfigSource are Kafka's, as DescribeConfigs carries them.
 */

/** DescribeConfigsResponse configType values. */
export const ConfigType = {
  UNKNOWN: 0,
  BOOLEAN: 1,
  STRING: 2,
  INT: 3,
  SHORT: 4,
  LONG: 5,
  DOUBLE: 6,
  LIST: 7,
  CLASS: 8,
  PASSWORD: 9,
} as const;

/** DescribeConfigsResponse configSource values. */
export const ConfigSource = {
  UNKNOWN: 0,
  DYNAMIC_TOPIC_CONFIG: 1,
  DYNAMIC_BROKER_CONFIG: 2,
  DYNAMIC_DEFAULT_BROKER_CONFIG: 3,
  STATIC_BROKER_CONFIG: 4,
  DEFAULT_CONFIG: 5,
  DYNAMIC_BROKER_LOGGER_CONFIG: 6,
} as const;

export type ConfigValueType = "boolean" | "string" | "int" | "long" | "double" | "list";

export type ConfigRule =
  | { readonly kind: "none" }
  | { readonly kind: "atLeast"; readonly min: number }
  | { readonly kind: "between"; readonly min: number; readonly max: number }
  | { readonly kind: "oneOf"; readonly values: readonly string[] }
  | { readonly kind: "listOf"; readonly values: readonly string[] }
  | { readonly kind: "throttledReplicas" }
  /** A Kafka release or inter-broker protocol version, as Kafka 3.x's MetadataVersion reads. */
  | { readonly kind: "kafkaVersion" }
  | {
      readonly kind: "compressionLevel";
      readonly min: number;
      readonly max: number;
      readonly other: number;
    };

/**
 * A broker config that supplies a topic config's default, most specific first. `scaleMs` turns
 * its value into the topic config's unit (log.retention.hours is scaled by 3,600,000).
 */
export interface BrokerSynonym {
  readonly name: string;
  readonly scaleMs: number;
}

export interface ConfigDefinition {
  readonly name: string;
  readonly type: ConfigValueType;
  /** The value when nothing sets it, as text; null when it has none. */
  readonly defaultValue: string | null;
  readonly rule: ConfigRule;
  /** For topic configs: the broker configs that supply the default, most specific first. */
  readonly brokerSynonyms: readonly BrokerSynonym[];
  readonly documentation: string;
}

/** The DescribeConfigs configType of a value type. */
export function configTypeOf(type: ConfigValueType): number {
  switch (type) {
    case "boolean":
      return ConfigType.BOOLEAN;
    case "string":
      return ConfigType.STRING;
    case "int":
      return ConfigType.INT;
    case "long":
      return ConfigType.LONG;
    case "double":
      return ConfigType.DOUBLE;
    case "list":
      return ConfigType.LIST;
  }
}

/** The items of a list value: comma-separated, trimmed, empty items dropped. */
export function listItems(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
