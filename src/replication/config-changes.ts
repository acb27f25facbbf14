/**
 * Which topics a metadata delta changed the configs of, for the replica manager to push the new
 * log configs into the open logs (Kafka's LogManager.updateTopicConfig and, for the broker's
 * dynamic defaults, reconfigureDefaultLogConfig).
 */
import { assertNever } from "../common/index.js";
import { ConfigResourceType, type MetadataDelta } from "../metadata/index.js";
import type { LogConfig, LogManager } from "../storage/index.js";
import type { Partition } from "./partition.driver.js";

/** Every topic, or the named ones. */
export type ChangedTopics =
  { readonly kind: "all" } | { readonly kind: "some"; readonly topics: ReadonlySet<string> };

/**
 * The topics whose effective configs `delta` may have changed: a change to a broker resource
 * (the cluster default "" or a broker's own entry) may change the defaults under every topic,
 * so all of them (giving a log the config it already has changes nothing); otherwise the topics
 * whose resources changed.
 */
export function topicsWithChangedConfigs(delta: MetadataDelta): ChangedTopics {
  const topics = new Set<string>();
  const changes = delta.configsDelta?.changedResources;
  if (changes === undefined) return { kind: "some", topics };
  for (const { resource } of changes.values()) {
    if (resource.type === ConfigResourceType.BROKER) return { kind: "all" };
    if (resource.type === ConfigResourceType.TOPIC) topics.add(resource.name);
  }
  return { kind: "some", topics };
}

/** Whether `topic` is among `changed`. */
export function isTopicChanged(changed: ChangedTopics, topic: string): boolean {
  switch (changed.kind) {
    case "all":
      return true;
    case "some":
      return changed.topics.has(topic);
    default:
      return assertNever(changed);
  }
}

/**
 * Gives the logs of `partitions` whose topic is among `changed` their new configs (Kafka's
 * LogManager.updateTopicConfig); a partition's future log, being moved to another dir, follows.
 */
export function updateLogConfigs(
  partitions: readonly Partition[],
  changed: ChangedTopics,
  sources: {
    readonly logConfigOf: (topic: string) => LogConfig;
    readonly logManager: Pick<LogManager, "getFutureLog">;
  },
): void {
  for (const partition of partitions) {
    const { topicPartition } = partition;
    if (!isTopicChanged(changed, topicPartition.topic)) continue;
    const config = sources.logConfigOf(topicPartition.topic);
    partition.updateLogConfig(config);
    sources.logManager.getFutureLog(topicPartition)?.updateConfig(config);
  }
}
