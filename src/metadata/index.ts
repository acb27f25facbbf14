// The metadata images of the cluster: immutable MetadataImage, MetadataDelta (replay, apply),
// the snapshot form of an image, and the loader that turns committed metadata into published
// images.
export type { PersistentMap } from "./persistent-map.js";
export { emptyMap, sortedEntries } from "./persistent-map.js";
export type {
  AccessControlEntries,
  BrokerRegistration,
  ClientQuotaEntityPart,
  ClientQuotaImage,
  ClientQuotasImage,
  ClusterImage,
  ConfigResource,
  ConfigurationsImage,
  ControllerRegistration,
  Endpoint,
  FeaturesImage,
  MetadataImage,
  MetadataProvenance,
  ProducerIdsImage,
  ResourceConfigs,
  SecurityImage,
  SupportedFeature,
  TopicImage,
  TopicsImage,
} from "./images.js";
export {
  ConfigResourceType,
  EMPTY_IMAGE,
  EMPTY_PROVENANCE,
  clientQuotaEntityKey,
  configResourceKey,
  scramCredentialKey,
} from "./images.js";
export type { LeaderRecoveryState, PartitionRegistration } from "./partition-registration.js";
export {
  DIRECTORY_MIGRATING,
  LEADER_RECOVERY_STATE_NO_CHANGE,
  NO_LEADER,
  NO_LEADER_CHANGE,
  hasReplica,
  leaderRecoveryStateValue,
  mergePartitionChange,
  partitionFromRecord,
  partitionToRecord,
} from "./partition-registration.js";
export { MetadataReplayError, isMetadataReplayError } from "./metadata-replay-error.js";
export { MetadataDelta } from "./metadata-delta.js";
export { ClusterDelta, FencingChange, InControlledShutdownChange } from "./cluster-delta.js";
export { TopicsDelta } from "./topics-delta.js";
export { TopicDelta } from "./topic-delta.js";
export { ConfigurationsDelta } from "./configurations-delta.js";
export type { ResourceChanges } from "./configurations-delta.js";
export { ClientQuotasDelta } from "./client-quotas-delta.js";
export {
  DIRECTORY_ASSIGNMENT_METADATA_VERSION,
  FeaturesDelta,
  METADATA_VERSION_FEATURE,
} from "./features-delta.js";
export { SecurityDelta } from "./security-delta.js";
export { KeyedChanges } from "./keyed-changes.js";
export type {
  LocalPartition,
  LocalPartitionReference,
  LocalReplicaChanges,
} from "./local-replica-changes.js";
export { imageFromRecords, imageToRecords } from "./snapshot-records.js";
export { imageToPlain } from "./image-plain.js";
export type { CommittedBatch, LoadedSnapshot, MetadataListener, SnapshotId } from "./listener.js";
export type { LoaderManifest, MetadataPublisher } from "./publisher.js";
export { MetadataLoader } from "./metadata-loader.js";
export type { MetadataLoaderOptions, SnapshotDecision } from "./metadata-loader.js";
export {
  DEFAULT_MAX_BYTES_BETWEEN_SNAPSHOTS,
  DEFAULT_MAX_SNAPSHOT_INTERVAL_MS,
  SnapshotPolicy,
} from "./snapshot-policy.js";
export type { SnapshotPolicyConfig, SnapshotReason } from "./snapshot-policy.js";
export {
  AclOperation,
  AclPatternType,
  AclPermissionType,
  AclResourceType,
  CLUSTER_RESOURCE_NAME,
  WILDCARD_HOST,
  WILDCARD_PRINCIPAL,
  WILDCARD_RESOURCE,
  aclCodeName,
  aclCodeOf,
  isKnownAclCode,
} from "../protocol/index.js";
export { AclAuthorizer } from "./acl-authorizer.js";
export type { AclAuthorizerOptions, AclRequester } from "./acl-authorizer.js";
export { aclFilterMatches, isUnknownAclFilter } from "./acl-filter.js";
export type { AclBinding, AclBindingFilter } from "./acl-filter.js";
