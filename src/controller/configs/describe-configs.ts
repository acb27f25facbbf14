/**
 * DescribeConfigs (v0-v4) for topics, brokers and the cluster-wide broker default: each config's
 * effective value and source, with synonyms (v1+) and documentation (v3+) when asked. A broker's
 * static configs that cannot change at run time are listed read-only.
 */
import { ErrorCode } from "../../common/index.js";
import { ConfigResourceType, configResourceKey, sortedEntries } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type {
  DescribeConfigsRequest,
  DescribeConfigsRequestDescribeConfigsResource,
  DescribeConfigsResponse,
  DescribeConfigsResponseDescribeConfigsResourceResult,
  DescribeConfigsResponseDescribeConfigsResult,
} from "../../protocol/index.js";
import {
  DYNAMIC_BROKER_CONFIGS,
  dynamicBrokerConfigDefinition,
} from "./broker-config-definitions.js";
import { ConfigSource, ConfigType, configTypeOf } from "./config-definition.js";
import type { ConfigDefinition } from "./config-definition.js";
import { resolveBrokerConfig, resolveTopicConfig } from "./config-resolution.js";
import type { ResolvedConfig, StaticBrokerConfig } from "./config-resolution.js";
import { checkResource } from "./config-resources.js";
import { TOPIC_CONFIGS } from "./topic-config-definitions.js";

export interface DescribeConfigsContext {
  readonly image: MetadataImage;
  readonly staticConfig: StaticBrokerConfig;
  /** The broker answering, whose per-broker dynamic configs apply to topic defaults. */
  readonly brokerId?: number;
}

/** What the request asks to include. */
interface Detail {
  readonly includeSynonyms: boolean;
  readonly includeDocumentation: boolean;
}

export function describeConfigs(
  context: DescribeConfigsContext,
  request: DescribeConfigsRequest,
): DescribeConfigsResponse {
  const results = request.resources.map((resource) => describeResource(context, request, resource));
  return { throttleTimeMs: 0, results };
}

function describeResource(
  context: DescribeConfigsContext,
  detail: Detail,
  resource: DescribeConfigsRequestDescribeConfigsResource,
): DescribeConfigsResponseDescribeConfigsResult {
  const { resourceType, resourceName } = resource;
  const checked = checkResource(context.image, resourceType, resourceName);
  if (checked.kind === "refused") {
    const { errorCode, errorMessage } = checked;
    return { errorCode, errorMessage, resourceType, resourceName, configs: [] };
  }
  const resolved =
    checked.kind === "topic"
      ? topicConfigs(context, resourceName)
      : checked.brokerId === undefined
        ? clusterDefaultConfigs(context.image)
        : brokerConfigs(context, checked.brokerId);
  const keys = resource.configurationKeys;
  const configs = resolved
    .filter((entry) => keys === null || keys.includes(entry.resolved.name))
    .map((entry) => resultOf(entry, detail));
  return { errorCode: ErrorCode.NONE, errorMessage: null, resourceType, resourceName, configs };
}

/** A resolved config with what the response says about its definition. */
interface Described {
  readonly resolved: ResolvedConfig;
  readonly definition: ConfigDefinition | undefined;
  readonly isReadOnly: boolean;
}

function topicConfigs(context: DescribeConfigsContext, topicName: string): Described[] {
  const scope = { ...context };
  return TOPIC_CONFIGS.map((definition) => ({
    resolved: resolveTopicConfig(scope, topicName, definition),
    definition,
    isReadOnly: false,
  }));
}

function brokerConfigs(context: DescribeConfigsContext, brokerId: number): Described[] {
  const scope = { image: context.image, staticConfig: context.staticConfig, brokerId };
  const dynamic: Described[] = DYNAMIC_BROKER_CONFIGS.map((definition) => ({
    resolved: resolveBrokerConfig(scope, definition),
    definition,
    isReadOnly: false,
  }));
  // Static keys the controller cannot change are shown as the node's file states them.
  const staticOnly: Described[] = Object.keys(context.staticConfig)
    .filter((name) => dynamicBrokerConfigDefinition(name) === undefined)
    .sort()
    .map((name) => {
      const value = context.staticConfig[name] ?? null;
      const synonym = { name, value, source: ConfigSource.STATIC_BROKER_CONFIG };
      return {
        resolved: { ...synonym, synonyms: [synonym] },
        definition: undefined,
        isReadOnly: true,
      };
    });
  return [...dynamic, ...staticOnly].sort((a, b) => (a.resolved.name < b.resolved.name ? -1 : 1));
}

/** The cluster-wide default resource shows only what is set on it, as Kafka's does. */
function clusterDefaultConfigs(image: MetadataImage): Described[] {
  const key = configResourceKey({ type: ConfigResourceType.BROKER, name: "" });
  const values = image.configs.resources.get(key)?.values;
  if (values === undefined) return [];
  return sortedEntries(values).map(([name, value]) => {
    const synonym = { name, value, source: ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG };
    return {
      resolved: { ...synonym, synonyms: [synonym] },
      definition: dynamicBrokerConfigDefinition(name),
      isReadOnly: false,
    };
  });
}

function resultOf(
  entry: Described,
  detail: Detail,
): DescribeConfigsResponseDescribeConfigsResourceResult {
  const { resolved, definition } = entry;
  return {
    name: resolved.name,
    value: resolved.value,
    readOnly: entry.isReadOnly,
    isDefault: resolved.source === ConfigSource.DEFAULT_CONFIG,
    configSource: resolved.source,
    isSensitive: false,
    synonyms: detail.includeSynonyms ? resolved.synonyms.map((synonym) => ({ ...synonym })) : [],
    configType: definition === undefined ? ConfigType.UNKNOWN : configTypeOf(definition.type),
    documentation: detail.includeDocumentation ? (definition?.documentation ?? null) : null,
  };
}
