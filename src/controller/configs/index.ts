// Configs: the topic and dynamic broker config definitions, value checks, resolution with
// synonyms and sources, DescribeConfigs, AlterConfigs and IncrementalAlterConfigs.
export { ConfigSource, ConfigType, configTypeOf, listItems } from "./config-definition.js";
export type {
  BrokerSynonym,
  ConfigDefinition,
  ConfigRule,
  ConfigValueType,
} from "./config-definition.js";
export { invalidValueReason } from "./config-validation.js";
export { TOPIC_CONFIGS, topicConfigDefinition } from "./topic-config-definitions.js";
export {
  DYNAMIC_BROKER_CONFIGS,
  dynamicBrokerConfigDefinition,
} from "./broker-config-definitions.js";
export { configuredValue, resolveBrokerConfig, resolveTopicConfig } from "./config-resolution.js";
export type {
  ConfigScope,
  ConfigSynonym,
  ResolvedConfig,
  StaticBrokerConfig,
} from "./config-resolution.js";
export { checkResource, configRecord } from "./config-resources.js";
export type { CheckedResource } from "./config-resources.js";
export { describeConfigs } from "./describe-configs.js";
export type { DescribeConfigsContext } from "./describe-configs.js";
export { alterConfigs } from "./alter-configs.js";
export { ConfigOperation, incrementalAlterConfigs } from "./incremental-alter-configs.js";
