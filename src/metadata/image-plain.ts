/**
 * An image as plain data (arrays and objects, every collection in key order): what tests compare
 * with deep equality and what a JSON view of the cluster prints. Two images hold the same facts
 * exactly when their plain forms are deeply equal.
 */
import type { MetadataImage } from "./images.js";
import { sortedEntries } from "./persistent-map.js";
import type { PersistentMap } from "./persistent-map.js";

function values<K extends string | number, V>(map: PersistentMap<K, V>): V[] {
  return sortedEntries(map).map(([, value]) => value);
}

function record<V>(map: PersistentMap<string, V>): Record<string, V> {
  return Object.fromEntries(sortedEntries(map));
}

function plainTopics(image: MetadataImage): unknown {
  const topics = values(image.topics.byName).map((topic) => ({
    name: topic.name,
    id: topic.id,
    partitions: sortedEntries(topic.partitions).map(([partitionIndex, partition]) => ({
      partitionIndex,
      ...partition,
    })),
  }));
  // Both indexes must name the same topics; listing the ids shows a difference if they do not.
  const idToName = sortedEntries(image.topics.byId).map(([id, topic]) => [id, topic.name]);
  return { topics, idToName };
}

/** The plain, deterministic form of `image`. */
export function imageToPlain(image: MetadataImage): unknown {
  return {
    provenance: image.provenance,
    features: {
      metadataVersion: image.features.metadataVersion ?? null,
      finalizedLevels: record(image.features.finalizedLevels),
      zkMigrationState: image.features.zkMigrationState,
    },
    cluster: {
      brokers: values(image.cluster.brokers),
      controllers: values(image.cluster.controllers),
    },
    topics: plainTopics(image),
    configs: values(image.configs.resources).map(({ resource, values: configs }) => ({
      resource,
      values: record(configs),
    })),
    clientQuotas: values(image.clientQuotas.entities).map(({ entity, quotas }) => ({
      entity,
      quotas: record(quotas),
    })),
    producerIds: image.producerIds,
    security: {
      acls: values(image.security.acls),
      scramCredentials: values(image.security.scramCredentials),
      delegationTokens: values(image.security.delegationTokens),
    },
  };
}
