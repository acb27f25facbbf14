/**
 * The settings that shape a partition's elections, read from the image the way Kafka's
 * ConfigurationControlManager resolves a topic config: the topic's own value, else the dynamic
 * cluster-wide default (the BROKER resource named ""), else the controller's static config.
 * Whether KIP-966 eligible leader replicas are tracked is the finalized
 * `eligible.leader.replicas.version` feature, as in Kafka 4: on at level 1 or above. As in
 * Kafka 4.0, a new cluster starts with it off unless `sluice format --feature` turns it on.
 */
import { ConfigResourceType, configResourceKey } from "../../metadata/index.js";
import type { MetadataImage, TopicImage } from "../../metadata/index.js";
import { ELIGIBLE_LEADER_REPLICAS_FEATURE } from "../features/index.js";

/** The topic config that lets a partition elect a leader from outside its ISR and ELR. */
export const UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";
/** The topic config naming the smallest ISR that acknowledges acks=all writes. */
export const MIN_IN_SYNC_REPLICAS = "min.insync.replicas";

/** The controller's static defaults for topics that set nothing (Kafka's defaults). */
export interface ReplicationDefaults {
  /** `unclean.leader.election.enable`; false in Kafka. */
  readonly uncleanLeaderElectionEnable: boolean;
  /** `min.insync.replicas`; 1 in Kafka. */
  readonly minInsyncReplicas: number;
}

/** Kafka's defaults for the settings above. */
export const DEFAULT_REPLICATION_DEFAULTS: ReplicationDefaults = {
  uncleanLeaderElectionEnable: false,
  minInsyncReplicas: 1,
};

export interface TopicElectionSettings {
  readonly isUncleanLeaderElectionEnabled: boolean;
  /** min.insync.replicas, capped at the topic's replication factor (Kafka's effective min ISR). */
  readonly minIsr: number;
  readonly isElrEnabled: boolean;
}

/** True when the finalized features turn eligible leader replicas (KIP-966) on. */
export function isElrEnabled(image: MetadataImage): boolean {
  return (image.features.finalizedLevels.get(ELIGIBLE_LEADER_REPLICAS_FEATURE) ?? 0) >= 1;
}

/** A topic config as set on the topic or, failing that, as the cluster-wide dynamic default. */
export function dynamicTopicConfig(
  image: MetadataImage,
  topicName: string,
  name: string,
): string | undefined {
  const resources = image.configs.resources;
  const topic = resources.get(
    configResourceKey({ type: ConfigResourceType.TOPIC, name: topicName }),
  );
  const own = topic?.values.get(name);
  if (own !== undefined) return own;
  const cluster = resources.get(configResourceKey({ type: ConfigResourceType.BROKER, name: "" }));
  return cluster?.values.get(name);
}

/** Whether the topic may elect uncleanly; values other than "true" and "false" fall through. */
export function isUncleanLeaderElectionEnabled(
  image: MetadataImage,
  topicName: string,
  defaults: ReplicationDefaults,
): boolean {
  const value = dynamicTopicConfig(image, topicName, UNCLEAN_LEADER_ELECTION_ENABLE);
  if (value?.toLowerCase() === "true") return true;
  if (value?.toLowerCase() === "false") return false;
  return defaults.uncleanLeaderElectionEnable;
}

/**
 * Kafka's effective min ISR: min.insync.replicas, but never more than the replication factor
 * (the replica count of partition 0), so a topic with fewer replicas can still fill its ISR.
 */
export function effectiveMinIsr(
  image: MetadataImage,
  topic: TopicImage,
  defaults: ReplicationDefaults,
): number {
  const value = Number(dynamicTopicConfig(image, topic.name, MIN_IN_SYNC_REPLICAS));
  const minIsr = Number.isSafeInteger(value) && value >= 1 ? value : defaults.minInsyncReplicas;
  const replicationFactor = topic.partitions.get(0)?.replicas.length ?? minIsr;
  return Math.min(minIsr, replicationFactor);
}

export function topicElectionSettings(
  image: MetadataImage,
  topic: TopicImage,
  defaults: ReplicationDefaults,
): TopicElectionSettings {
  return {
    isUncleanLeaderElectionEnabled: isUncleanLeaderElectionEnabled(image, topic.name, defaults),
    minIsr: effectiveMinIsr(image, topic, defaults),
    isElrEnabled: isElrEnabled(image),
  };
}
