/**
 * The snapshot form of an image: the records Kafka writes in a metadata snapshot, in its order
 * (feature levels with metadata.version first, brokers and controllers, topics with their
 * partitions, configs, client quotas, producer ids, ACLs, SCRAM credentials, delegation tokens).
 * Replaying them over the empty image gives an image equal to the one written.
 */
import { assert } from "../common/index.js";
import { MetadataRecordType, metadataRecordSchema } from "../protocol/index.js";
import type { MetadataRecord, MetadataRecordTypeNumber } from "../protocol/index.js";
import type { BrokerRegistration, ControllerRegistration, MetadataImage } from "./images.js";
import { EMPTY_IMAGE } from "./images.js";
import type { MetadataProvenance } from "./images.js";
import { MetadataDelta } from "./metadata-delta.js";
import { METADATA_VERSION_FEATURE } from "./features-delta.js";
import { partitionToRecord } from "./partition-registration.js";
import { sortedEntries } from "./persistent-map.js";

const T = MetadataRecordType;

/** The newest version of a record type, the one a snapshot is written with. */
function latestVersion(type: MetadataRecordTypeNumber): number {
  const schema = metadataRecordSchema(type);
  assert(schema !== undefined, `metadata record type ${type} has a schema`);
  return schema.validVersions[1];
}

function record<K extends MetadataRecordTypeNumber>(
  type: K,
  data: Extract<MetadataRecord, { type: K }>["data"],
): MetadataRecord {
  return { type, version: latestVersion(type), data } as MetadataRecord;
}

function featureRecords(image: MetadataImage, into: MetadataRecord[]): void {
  const { metadataVersion, finalizedLevels, zkMigrationState } = image.features;
  // metadata.version comes first: it decides how a reader reads the records after it.
  if (metadataVersion !== undefined) {
    const data = { name: METADATA_VERSION_FEATURE, featureLevel: metadataVersion };
    into.push(record(T.FeatureLevelRecord, data));
  }
  for (const [name, featureLevel] of sortedEntries(finalizedLevels)) {
    into.push(record(T.FeatureLevelRecord, { name, featureLevel }));
  }
  if (zkMigrationState !== 0) into.push(record(T.ZkMigrationStateRecord, { zkMigrationState }));
}

function brokerRecord(broker: BrokerRegistration): MetadataRecord {
  return record(T.RegisterBrokerRecord, {
    brokerId: broker.id,
    isMigratingZkBroker: broker.isMigratingZkBroker,
    incarnationId: broker.incarnationId,
    brokerEpoch: broker.epoch,
    endPoints: broker.listeners.map((endpoint) => ({ ...endpoint })),
    features: broker.supportedFeatures.map((feature) => ({ ...feature })),
    rack: broker.rack,
    fenced: broker.isFenced,
    inControlledShutdown: broker.isInControlledShutdown,
    logDirs: broker.directories.slice(),
  });
}

function controllerRecord(controller: ControllerRegistration): MetadataRecord {
  return record(T.RegisterControllerRecord, {
    controllerId: controller.id,
    incarnationId: controller.incarnationId,
    zkMigrationReady: controller.isZkMigrationReady,
    endPoints: controller.listeners.map((endpoint) => ({ ...endpoint })),
    features: controller.supportedFeatures.map((feature) => ({ ...feature })),
  });
}

function clusterRecords(image: MetadataImage, into: MetadataRecord[]): void {
  for (const [, broker] of sortedEntries(image.cluster.brokers)) into.push(brokerRecord(broker));
  for (const [, controller] of sortedEntries(image.cluster.controllers)) {
    into.push(controllerRecord(controller));
  }
}

function topicRecords(image: MetadataImage, into: MetadataRecord[]): void {
  for (const [name, topic] of sortedEntries(image.topics.byName)) {
    into.push(record(T.TopicRecord, { name, topicId: topic.id }));
    for (const [index, partition] of sortedEntries(topic.partitions)) {
      into.push(record(T.PartitionRecord, partitionToRecord(topic.id, index, partition)));
    }
  }
}

function configRecords(image: MetadataImage, into: MetadataRecord[]): void {
  for (const [, { resource, values }] of sortedEntries(image.configs.resources)) {
    for (const [name, value] of sortedEntries(values)) {
      const data = { resourceType: resource.type, resourceName: resource.name, name, value };
      into.push(record(T.ConfigRecord, data));
    }
  }
}

function clientQuotaRecords(image: MetadataImage, into: MetadataRecord[]): void {
  for (const [, { entity, quotas }] of sortedEntries(image.clientQuotas.entities)) {
    for (const [key, value] of sortedEntries(quotas)) {
      const parts = entity.map((part) => ({ ...part }));
      into.push(record(T.ClientQuotaRecord, { entity: parts, key, value, remove: false }));
    }
  }
}

function producerIdRecords(image: MetadataImage, into: MetadataRecord[]): void {
  const nextProducerId = image.producerIds.nextProducerId;
  // Kafka writes the block state with no broker: it is the controller's, not a request's.
  if (nextProducerId >= 0) {
    into.push(record(T.ProducerIdsRecord, { brokerId: -1, brokerEpoch: -1, nextProducerId }));
  }
}

function securityRecords(image: MetadataImage, into: MetadataRecord[]): void {
  const { acls, scramCredentials, delegationTokens } = image.security;
  for (const [, acl] of sortedEntries(acls)) into.push(record(T.AccessControlEntryRecord, acl));
  for (const [, credential] of sortedEntries(scramCredentials)) {
    into.push(record(T.UserScramCredentialRecord, credential));
  }
  for (const [, token] of sortedEntries(delegationTokens)) {
    into.push(record(T.DelegationTokenRecord, token));
  }
}

/** The records of a metadata snapshot of `image`, in Kafka's order; each entity sorted by key. */
export function imageToRecords(image: MetadataImage): MetadataRecord[] {
  const records: MetadataRecord[] = [];
  featureRecords(image, records);
  clusterRecords(image, records);
  topicRecords(image, records);
  configRecords(image, records);
  clientQuotaRecords(image, records);
  producerIdRecords(image, records);
  securityRecords(image, records);
  return records;
}

/** The image that snapshot `records` describe, stamped with `provenance`. */
export function imageFromRecords(
  records: Iterable<MetadataRecord>,
  provenance: MetadataProvenance,
): MetadataImage {
  const delta = new MetadataDelta(EMPTY_IMAGE);
  delta.replayAll(records);
  return delta.apply(provenance);
}
