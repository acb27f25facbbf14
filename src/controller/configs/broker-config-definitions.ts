/**
 * The broker configs the controller lets operators change at run time, for one broker or as the
 * cluster default (resource name ""): the broker configs that supply topic defaults
 * (log.retention.ms, log.segment.bytes, min.insync.replicas, compression.type, ...), as Kafka's
 * DynamicLogConfig allows, and the replication throttle rates (KIP-73), which Kafka accepts only
 * dynamically. Other broker configs are static: set in the node's config file.
 */
import type { ConfigDefinition } from "./config-definition.js";
import { TOPIC_CONFIGS } from "./topic-config-definitions.js";

/** Kafka's QUOTA_BYTES_PER_SECOND_DEFAULT, Long.MAX_VALUE: no bound. */
const NO_BOUND = "9223372036854775807";

function throttleRate(side: "leader" | "follower"): ConfigDefinition {
  return {
    name: `${side}.replication.throttled.rate`,
    type: "long",
    defaultValue: NO_BOUND,
    rule: { kind: "atLeast", min: 0 },
    brokerSynonyms: [],
    documentation:
      `The bound in bytes per second on the ${side} side's replication of the replicas that ` +
      `${side}.replication.throttled.replicas names, per topic.`,
  };
}

function brokerDefinitions(): ConfigDefinition[] {
  const definitions: ConfigDefinition[] = [throttleRate("leader"), throttleRate("follower")];
  for (const topic of TOPIC_CONFIGS) {
    topic.brokerSynonyms.forEach((synonym, index) => {
      const isLast = index === topic.brokerSynonyms.length - 1;
      // The least specific synonym holds the default (log.retention.hours = 168), as in Kafka.
      const defaultValue =
        isLast && topic.defaultValue !== null
          ? scaledDefault(topic.defaultValue, synonym.scaleMs)
          : null;
      definitions.push({
        name: synonym.name,
        type: synonym.scaleMs === 1 ? topic.type : "int",
        defaultValue,
        rule: synonym.scaleMs === 1 ? topic.rule : { kind: "atLeast", min: -1 },
        brokerSynonyms: [],
        documentation: `The cluster's default for the topic config ${topic.name}.`,
      });
    });
  }
  return definitions.sort((a, b) => (a.name < b.name ? -1 : 1));
}

function scaledDefault(value: string, scaleMs: number): string {
  if (scaleMs === 1) return value;
  return String(Math.floor(Number(value) / scaleMs));
}

/** Every dynamic broker config, in name order. */
export const DYNAMIC_BROKER_CONFIGS: readonly ConfigDefinition[] = brokerDefinitions();

const byName = new Map(DYNAMIC_BROKER_CONFIGS.map((definition) => [definition.name, definition]));

/** A dynamic broker config's definition; undefined when it cannot change at run time. */
export function dynamicBrokerConfigDefinition(name: string): ConfigDefinition | undefined {
  return byName.get(name);
}
