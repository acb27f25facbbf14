/**
 * Whether a node's supported feature ranges cover the cluster's finalized levels, as Kafka's
 * controller checks when a broker or controller registers.
 */
import type { FeaturesImage, SupportedFeature } from "../../metadata/index.js";
import { sortedEntries } from "../../metadata/index.js";
import { METADATA_VERSION } from "./metadata-version.js";

/** A feature range a registering node reports. */
export type FeatureRange = Pick<
  SupportedFeature,
  "name" | "minSupportedVersion" | "maxSupportedVersion"
>;

/** The finalized level `node` cannot run, as a message, or undefined when it runs them all. */
export function unsupportedFeatureMessage(
  features: FeaturesImage,
  supported: readonly FeatureRange[],
): string | undefined {
  const finalized: [string, number][] = sortedEntries(features.finalizedLevels);
  if (features.metadataVersion !== undefined) {
    finalized.unshift([METADATA_VERSION, features.metadataVersion]);
  }
  for (const [name, level] of finalized) {
    // A node that does not name a feature supports only level 0 of it, as in Kafka.
    const range = supported.find((feature) => feature.name === name);
    const min = range?.minSupportedVersion ?? 0;
    const max = range?.maxSupportedVersion ?? 0;
    if (level < min || level > max) {
      return `the node does not support level ${level} of ${name} (it supports ${min} to ${max})`;
    }
  }
  return undefined;
}
