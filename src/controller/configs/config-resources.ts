/**
 * Which resource a config request names, and the definition of a key on it. Topics must exist;
 * a broker resource is a broker id in decimal or "" for the cluster-wide default, as Kafka's
 * controller requires; other resource types are not served by the controller.
 */
import { ErrorCode, shownText } from "../../common/index.js";
import { ConfigResourceType } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import { dynamicBrokerConfigDefinition } from "./broker-config-definitions.js";
import type { ConfigDefinition } from "./config-definition.js";
import { topicConfigDefinition } from "./topic-config-definitions.js";

/** A resource a config request may name, or why it may not. */
export type CheckedResource =
  | { readonly kind: "topic"; readonly name: string }
  | { readonly kind: "broker"; readonly name: string; readonly brokerId: number | undefined }
  | { readonly kind: "refused"; readonly errorCode: number; readonly errorMessage: string };

export function checkResource(
  image: MetadataImage,
  resourceType: number,
  resourceName: string,
): CheckedResource {
  if (resourceType === ConfigResourceType.TOPIC) {
    if (image.topics.byName.has(resourceName)) return { kind: "topic", name: resourceName };
    const errorMessage = `topic "${shownText(resourceName)}" does not exist`;
    return { kind: "refused", errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage };
  }
  if (resourceType === ConfigResourceType.BROKER) {
    if (resourceName === "") return { kind: "broker", name: "", brokerId: undefined };
    if (/^\d+$/.test(resourceName) && Number(resourceName) <= 2 ** 31 - 1) {
      return { kind: "broker", name: resourceName, brokerId: Number(resourceName) };
    }
    const shown = shownText(resourceName);
    const errorMessage = `broker resource name "${shown}" is not a broker id or ""`;
    return { kind: "refused", errorCode: ErrorCode.INVALID_REQUEST, errorMessage };
  }
  const errorMessage = `the controller serves no configs of resource type ${resourceType}`;
  return { kind: "refused", errorCode: ErrorCode.INVALID_REQUEST, errorMessage };
}

/** The definition of `key` on a checked resource, or undefined for an unknown key. */
export function definitionOn(
  resource: CheckedResource & { kind: "topic" | "broker" },
  key: string,
): ConfigDefinition | undefined {
  return resource.kind === "topic"
    ? topicConfigDefinition(key)
    : dynamicBrokerConfigDefinition(key);
}

export function unknownKeyMessage(
  resource: CheckedResource & { kind: "topic" | "broker" },
  key: string,
): string {
  return resource.kind === "topic"
    ? `unknown topic config ${key}`
    : `broker config ${key} is unknown or cannot be changed while the broker runs`;
}

/** The ConfigResourceType number of a checked resource. */
export function resourceTypeOf(resource: CheckedResource & { kind: "topic" | "broker" }): number {
  return resource.kind === "topic" ? ConfigResourceType.TOPIC : ConfigResourceType.BROKER;
}

/** A ConfigRecord setting (or, with null, removing) one key of a resource. */
export function configRecord(
  resourceType: number,
  resourceName: string,
  name: string,
  value: string | null,
): MetadataRecord {
  return {
    type: MetadataRecordType.ConfigRecord,
    version: 0,
    data: { resourceType, resourceName, name, value },
  };
}

/**
 * The positions of resources named more than once in one request; Kafka refuses every copy with
 * INVALID_REQUEST rather than guess which one was meant.
 */
export function duplicateResources(
  resources: readonly { readonly resourceType: number; readonly resourceName: string }[],
): Set<number> {
  const counts = new Map<string, number>();
  const keyOf = (resource: { resourceType: number; resourceName: string }): string =>
    `${resource.resourceType}:${resource.resourceName}`;
  for (const resource of resources)
    counts.set(keyOf(resource), (counts.get(keyOf(resource)) ?? 0) + 1);
  const duplicates = new Set<number>();
  resources.forEach((resource, index) => {
    if ((counts.get(keyOf(resource)) ?? 0) > 1) duplicates.add(index);
  });
  return duplicates;
}
