/**
 * Builders of the membership records the controller writes, whole (every field set), so the
 * driver can both encode them and replay them into its own image.
 */
import { assert } from "../../common/index.js";
import type { BrokerId, Uuid } from "../../common/index.js";
import type { BrokerRegistration, MetadataImage } from "../../metadata/index.js";
import { FencingChange, InControlledShutdownChange } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { MetadataRecord, RegisterBrokerRecord } from "../../protocol/index.js";
import { brokerRegistrationChangeRecordVersion } from "../features/index.js";
import { registerBrokerRecordVersion } from "../features/index.js";

const T = MetadataRecordType;

/** An endpoint as registration requests announce it and registration records keep it. */
interface AnnouncedEndpoint {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly securityProtocol: number;
}

/** A feature range as registration requests announce it and registration records keep it. */
interface AnnouncedFeature {
  readonly name: string;
  readonly minSupportedVersion: number;
  readonly maxSupportedVersion: number;
}

/**
 * The endpoints and supported features of a BrokerRegistration or ControllerRegistration request,
 * copied field by field into the form of their registration record (the request's own entries
 * carry request-only fields such as unknown tagged fields).
 */
export function announcedEndpointsAndFeatures(request: {
  readonly listeners: readonly AnnouncedEndpoint[];
  readonly features: readonly AnnouncedFeature[];
}): { endPoints: AnnouncedEndpoint[]; features: AnnouncedFeature[] } {
  return {
    endPoints: request.listeners.map(({ name, host, port, securityProtocol }) => ({
      name,
      host,
      port,
      securityProtocol,
    })),
    features: request.features.map(({ name, minSupportedVersion, maxSupportedVersion }) => ({
      name,
      minSupportedVersion,
      maxSupportedVersion,
    })),
  };
}

/** The metadata.version an image runs at; an image without one has not been bootstrapped. */
export function metadataVersionOf(image: MetadataImage): number {
  const level = image.features.metadataVersion;
  // The bootstrap records come first in every metadata log, so an active controller's image
  // always has a level.
  assert(level !== undefined, "the image has no metadata.version");
  return level;
}

/** A RegisterBrokerRecord at the version the image's metadata.version writes. */
export function registerBrokerRecord(
  image: MetadataImage,
  data: RegisterBrokerRecord,
): MetadataRecord {
  const version = registerBrokerRecordVersion(metadataVersionOf(image));
  return { type: T.RegisterBrokerRecord, version, data };
}

/** What a BrokerRegistrationChangeRecord changes; absent parts stay as they are. */
export interface RegistrationChange {
  readonly fence?: "fence" | "unfence";
  readonly enterControlledShutdown?: boolean;
  /** The broker's online log dirs after the change. */
  readonly directories?: readonly Uuid[];
}

/** A BrokerRegistrationChangeRecord for the broker's current epoch. */
export function registrationChangeRecord(
  image: MetadataImage,
  broker: BrokerRegistration,
  change: RegistrationChange,
): MetadataRecord {
  const fenced =
    change.fence === undefined
      ? FencingChange.NONE
      : change.fence === "fence"
        ? FencingChange.FENCE
        : FencingChange.UNFENCE;
  const inControlledShutdown =
    change.enterControlledShutdown === true
      ? InControlledShutdownChange.IN_CONTROLLED_SHUTDOWN
      : InControlledShutdownChange.NONE;
  return {
    type: T.BrokerRegistrationChangeRecord,
    version: brokerRegistrationChangeRecordVersion(metadataVersionOf(image)),
    data: {
      brokerId: broker.id,
      brokerEpoch: broker.epoch,
      fenced,
      inControlledShutdown,
      logDirs: change.directories === undefined ? [] : [...change.directories],
    },
  };
}

/** An UnregisterBrokerRecord for the broker's current registration. */
export function unregisterBrokerRecord(broker: BrokerRegistration): MetadataRecord {
  return {
    type: T.UnregisterBrokerRecord,
    version: 0,
    data: { brokerId: broker.id, brokerEpoch: broker.epoch },
  };
}

/** How many partitions the broker leads; a linear scan, done only for shutting-down brokers. */
export function leadershipCount(image: MetadataImage, brokerId: BrokerId): number {
  let count = 0;
  for (const topic of image.topics.byId.values()) {
    for (const partition of topic.partitions.values()) {
      if (partition.leader === brokerId) count += 1;
    }
  }
  return count;
}
