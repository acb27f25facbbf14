// Finalized features: metadata.version levels and the record versions they write, the check of
// a registering node's feature ranges, and the bootstrap records of a new cluster.
export {
  METADATA_VERSION,
  METADATA_VERSION_LATEST,
  METADATA_VERSION_MIN,
  brokerRegistrationChangeRecordVersion,
  hasDirectoryAssignment,
  isSupportedMetadataVersion,
  partitionRecordVersion,
  registerBrokerRecordVersion,
} from "./metadata-version.js";
export { bootstrapRecords, featureLevelRecord } from "./bootstrap.js";
export type { BootstrapFeature, BootstrapOptions } from "./bootstrap.js";
export { unsupportedFeatureMessage } from "./supported-features.js";
export type { FeatureRange } from "./supported-features.js";
export {
  ELIGIBLE_LEADER_REPLICAS_FEATURE,
  KNOWN_FEATURES,
  bootstrapChoiceFromRecords,
  bootstrapChoiceOf,
  supportedFeatureRanges,
} from "./known-features.js";
export type { BootstrapChoice, KnownFeature } from "./known-features.js";
export { UpgradeType, decideFeatureUpdates, featureUpdatesOf } from "./update-features.js";
export type { FeatureUpdate, FeatureUpdateOutcome } from "./update-features.js";
