/**
 * The immutable metadata image: every cluster fact the metadata log has stated up to one offset.
 * Each part is built from persistent maps, so an image made by applying a delta shares every
 * entity the delta did not touch with the image before it. Readers may hold an image for as long
 * as they like; nothing in it ever changes.
 */
import type { BrokerId, Uuid } from "../common/index.js";
import type {
  AccessControlEntryRecord,
  DelegationTokenRecord,
  UserScramCredentialRecord,
} from "../protocol/index.js";
import type { PartitionRegistration } from "./partition-registration.js";
import { emptyMap } from "./persistent-map.js";
import type { PersistentMap } from "./persistent-map.js";

/** Where an image stands in the metadata log: the last record applied to it. */
export interface MetadataProvenance {
  /** The offset of the last record applied, or -1 for the empty image. */
  readonly lastContainedOffset: number;
  /** The leader epoch of the batch that held that record, or -1 for the empty image. */
  readonly lastContainedEpoch: number;
}

/** Finalized feature levels. metadata.version is kept apart, as Kafka's FeaturesImage does. */
export interface FeaturesImage {
  /** The metadata.version feature level, undefined until a FeatureLevelRecord sets it. */
  readonly metadataVersion: number | undefined;
  /** Every other finalized feature by name; a level of 0 removes a feature. */
  readonly finalizedLevels: PersistentMap<string, number>;
  /** The ZooKeeper migration state byte (0 = NONE), kept only to round-trip old logs. */
  readonly zkMigrationState: number;
}

/** A named listener of a broker or controller, as registered. */
export interface Endpoint {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly securityProtocol: number;
}

/** A feature a node supports, with the range of levels it can run. */
export interface SupportedFeature {
  readonly name: string;
  readonly minSupportedVersion: number;
  readonly maxSupportedVersion: number;
}

/** A broker's registration: who it is, where it listens and whether it may lead partitions. */
export interface BrokerRegistration {
  readonly id: BrokerId;
  readonly epoch: number;
  readonly incarnationId: Uuid;
  /** Listeners sorted by name. */
  readonly listeners: readonly Endpoint[];
  /** Supported features sorted by name. */
  readonly supportedFeatures: readonly SupportedFeature[];
  readonly rack: string | null;
  readonly isFenced: boolean;
  readonly isInControlledShutdown: boolean;
  readonly isMigratingZkBroker: boolean;
  /** The broker's online log dirs, sorted. */
  readonly directories: readonly Uuid[];
}

/** A controller's registration (RegisterControllerRecord). */
export interface ControllerRegistration {
  readonly id: BrokerId;
  readonly incarnationId: Uuid;
  readonly isZkMigrationReady: boolean;
  readonly listeners: readonly Endpoint[];
  readonly supportedFeatures: readonly SupportedFeature[];
}

/** Registered brokers and controllers by id. */
export interface ClusterImage {
  readonly brokers: PersistentMap<BrokerId, BrokerRegistration>;
  readonly controllers: PersistentMap<BrokerId, ControllerRegistration>;
}

/** One topic and its partitions by partition index. */
export interface TopicImage {
  readonly name: string;
  readonly id: Uuid;
  readonly partitions: PersistentMap<number, PartitionRegistration>;
}

/** Every topic, reachable by id and by name (the same TopicImage objects in both maps). */
export interface TopicsImage {
  readonly byId: PersistentMap<Uuid, TopicImage>;
  readonly byName: PersistentMap<string, TopicImage>;
}

/** Kafka's ConfigResource.Type ids, as ConfigRecord.resourceType carries them. */
export const ConfigResourceType = {
  TOPIC: 2,
  BROKER: 4,
  BROKER_LOGGER: 8,
  CLIENT_METRICS: 16,
  GROUP: 32,
} as const;

/** A resource that has configs; the cluster-wide broker default is the BROKER named "". */
export interface ConfigResource {
  readonly type: number;
  readonly name: string;
}

export interface ResourceConfigs {
  readonly resource: ConfigResource;
  readonly values: PersistentMap<string, string>;
}

/** Configs of every resource that has at least one, by configResourceKey. */
export interface ConfigurationsImage {
  readonly resources: PersistentMap<string, ResourceConfigs>;
}

/** The key of `resource` in ConfigurationsImage.resources. */
export function configResourceKey(resource: ConfigResource): string {
  return `${resource.type}:${resource.name}`;
}

/** The producer id block state: the first producer id not yet handed out, or -1. */
export interface ProducerIdsImage {
  readonly nextProducerId: number;
}

/** One part of a client quota entity: a type (user, client-id, ip) and a name (null = default). */
export interface ClientQuotaEntityPart {
  readonly entityType: string;
  readonly entityName: string | null;
}

export interface ClientQuotaImage {
  /** The entity's parts, sorted by entity type. */
  readonly entity: readonly ClientQuotaEntityPart[];
  readonly quotas: PersistentMap<string, number>;
}

/** Client quotas by clientQuotaEntityKey. */
export interface ClientQuotasImage {
  readonly entities: PersistentMap<string, ClientQuotaImage>;
}

/** The key of an entity in ClientQuotasImage.entities; independent of the parts' order. */
export function clientQuotaEntityKey(entity: readonly ClientQuotaEntityPart[]): string {
  const parts = entity.map((part) => JSON.stringify([part.entityType, part.entityName]));
  return parts.sort().join(",");
}

/** Security state: ACLs by id, SCRAM credentials by mechanism and user, delegation tokens by id. */
/** The ACLs of an image, by id. */
export type AccessControlEntries = PersistentMap<Uuid, AccessControlEntryRecord>;

export interface SecurityImage {
  readonly acls: AccessControlEntries;
  /** Keyed by scramCredentialKey. */
  readonly scramCredentials: PersistentMap<string, UserScramCredentialRecord>;
  readonly delegationTokens: PersistentMap<string, DelegationTokenRecord>;
}

/** The key of a SCRAM credential in SecurityImage.scramCredentials. */
export function scramCredentialKey(credential: { mechanism: number; name: string }): string {
  return `${credential.mechanism}:${credential.name}`;
}

export interface MetadataImage {
  readonly provenance: MetadataProvenance;
  readonly features: FeaturesImage;
  readonly cluster: ClusterImage;
  readonly topics: TopicsImage;
  readonly configs: ConfigurationsImage;
  readonly clientQuotas: ClientQuotasImage;
  readonly producerIds: ProducerIdsImage;
  readonly security: SecurityImage;
}

export const EMPTY_PROVENANCE: MetadataProvenance = {
  lastContainedOffset: -1,
  lastContainedEpoch: -1,
};

/** The image before any record: no features, brokers, topics or configs. */
export const EMPTY_IMAGE: MetadataImage = {
  provenance: EMPTY_PROVENANCE,
  features: { metadataVersion: undefined, finalizedLevels: emptyMap(), zkMigrationState: 0 },
  cluster: { brokers: emptyMap(), controllers: emptyMap() },
  topics: { byId: emptyMap(), byName: emptyMap() },
  configs: { resources: emptyMap() },
  clientQuotas: { entities: emptyMap() },
  producerIds: { nextProducerId: -1 },
  security: { acls: emptyMap(), scramCredentials: emptyMap(), delegationTokens: emptyMap() },
};
