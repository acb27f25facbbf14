// The broker's metadata cache: the latest image, live brokers' endpoints per listener, the
// controller id clients are told, and partitions as Metadata answers them.
export {
  MetadataCache,
  endpointOf,
  type BrokerEndpoint,
  type MetadataCacheOptions,
} from "./metadata-cache.js";
export {
  offlineReplicasOf,
  partitionsMetadata,
  type PartitionMetadata,
  type PartitionMetadataOptions,
} from "./topic-metadata.js";
