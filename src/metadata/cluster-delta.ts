/**
 * Changes to the registered brokers and controllers, with Kafka's ClusterDelta semantics: a
 * RegisterBrokerRecord replaces any earlier registration of the id; fencing, unfencing and
 * registration changes must name the broker's current epoch.
 */
import type { BrokerId, Uuid } from "../common/index.js";
import type {
  BrokerRegistrationChangeRecord,
  FenceBrokerRecord,
  RegisterBrokerRecord,
  RegisterControllerRecord,
  UnfenceBrokerRecord,
  UnregisterBrokerRecord,
} from "../protocol/index.js";
import type {
  BrokerRegistration,
  ClusterImage,
  ControllerRegistration,
  Endpoint,
  SupportedFeature,
} from "./images.js";
import { KeyedChanges } from "./keyed-changes.js";
import { MetadataReplayError } from "./metadata-replay-error.js";

/** BrokerRegistrationChangeRecord.fenced: 1 fences, -1 unfences, 0 leaves it. */
export const FencingChange = { FENCE: 1, NONE: 0, UNFENCE: -1 } as const;
/** BrokerRegistrationChangeRecord.inControlledShutdown: 1 enters controlled shutdown. */
export const InControlledShutdownChange = { NONE: 0, IN_CONTROLLED_SHUTDOWN: 1 } as const;

function byName<T extends { readonly name: string }>(items: readonly T[]): T[] {
  return items
    .slice()
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

function endpointsOf(endPoints: readonly Endpoint[]): Endpoint[] {
  return byName(
    endPoints.map(({ name, host, port, securityProtocol }) => ({
      name,
      host,
      port,
      securityProtocol,
    })),
  );
}

function featuresOf(features: readonly SupportedFeature[]): SupportedFeature[] {
  return byName(
    features.map(({ name, minSupportedVersion, maxSupportedVersion }) => ({
      name,
      minSupportedVersion,
      maxSupportedVersion,
    })),
  );
}

export function brokerFromRecord(record: RegisterBrokerRecord): BrokerRegistration {
  return {
    id: record.brokerId as BrokerId,
    epoch: record.brokerEpoch,
    incarnationId: record.incarnationId as Uuid,
    listeners: endpointsOf(record.endPoints),
    supportedFeatures: featuresOf(record.features),
    rack: record.rack,
    isFenced: record.fenced,
    isInControlledShutdown: record.inControlledShutdown,
    isMigratingZkBroker: record.isMigratingZkBroker,
    directories: (record.logDirs.slice() as Uuid[]).sort(),
  };
}

export function controllerFromRecord(record: RegisterControllerRecord): ControllerRegistration {
  return {
    id: record.controllerId as BrokerId,
    incarnationId: record.incarnationId as Uuid,
    isZkMigrationReady: record.zkMigrationReady,
    listeners: endpointsOf(record.endPoints),
    supportedFeatures: featuresOf(record.features),
  };
}

export class ClusterDelta {
  /** Brokers registered, changed (set) or unregistered (undefined). */
  readonly brokers: KeyedChanges<BrokerId, BrokerRegistration>;
  /** Controllers registered (set) or removed by a snapshot (undefined). */
  readonly controllers: KeyedChanges<BrokerId, ControllerRegistration>;

  constructor(readonly image: ClusterImage) {
    this.brokers = new KeyedChanges(image.brokers);
    this.controllers = new KeyedChanges(image.controllers);
  }

  /** Replays a RegisterBrokerRecord: the new registration replaces any earlier one. */
  replayRegisterBroker(record: RegisterBrokerRecord): void {
    this.brokers.set(record.brokerId as BrokerId, brokerFromRecord(record));
  }

  /** Replays an UnregisterBrokerRecord; as in Kafka, an unknown id is no error. */
  replayUnregisterBroker(record: UnregisterBrokerRecord): void {
    this.brokers.remove(record.brokerId as BrokerId);
  }

  replayRegisterController(record: RegisterControllerRecord): void {
    this.controllers.set(record.controllerId as BrokerId, controllerFromRecord(record));
  }

  replayFenceBroker(record: FenceBrokerRecord): void {
    const broker = this.brokerAtEpoch(record.id, record.epoch, "fence");
    this.brokers.set(broker.id, { ...broker, isFenced: true });
  }

  replayUnfenceBroker(record: UnfenceBrokerRecord): void {
    const broker = this.brokerAtEpoch(record.id, record.epoch, "unfence");
    this.brokers.set(broker.id, { ...broker, isFenced: false });
  }

  /**
   * Replays a BrokerRegistrationChangeRecord: fencing is a tri-state, controlled shutdown can only
   * be entered, and a non-empty logDirs list replaces the broker's online log dirs.
   */
  replayBrokerRegistrationChange(record: BrokerRegistrationChangeRecord): void {
    const broker = this.brokerAtEpoch(record.brokerId, record.brokerEpoch, "change");
    const isFenced = fencedAfter(broker.isFenced, record.fenced);
    if (
      record.inControlledShutdown !== InControlledShutdownChange.NONE &&
      record.inControlledShutdown !== InControlledShutdownChange.IN_CONTROLLED_SHUTDOWN
    ) {
      throw new MetadataReplayError(
        `inControlledShutdown ${record.inControlledShutdown} is not defined`,
      );
    }
    const isInControlledShutdown =
      broker.isInControlledShutdown ||
      record.inControlledShutdown === InControlledShutdownChange.IN_CONTROLLED_SHUTDOWN;
    const directories =
      record.logDirs.length === 0 ? broker.directories : (record.logDirs.slice() as Uuid[]).sort();
    const isUnchanged =
      isFenced === broker.isFenced &&
      isInControlledShutdown === broker.isInControlledShutdown &&
      directories === broker.directories;
    // As in Kafka, a change record that changes nothing leaves the registration object as it is.
    if (isUnchanged) return;
    this.brokers.set(broker.id, { ...broker, isFenced, isInControlledShutdown, directories });
  }

  apply(): ClusterImage {
    return { brokers: this.brokers.apply(), controllers: this.controllers.apply() };
  }

  /** After a snapshot: brokers and controllers it did not register are gone. */
  finishSnapshot(): void {
    this.brokers.finishSnapshot();
    this.controllers.finishSnapshot();
  }

  private brokerAtEpoch(id: number, epoch: number, action: string): BrokerRegistration {
    const broker = this.brokers.get(id as BrokerId);
    if (broker === undefined) {
      throw new MetadataReplayError(`cannot ${action} broker ${id}: it is not registered`);
    }
    if (broker.epoch !== epoch) {
      throw new MetadataReplayError(
        `cannot ${action} broker ${id}: epoch ${epoch} is not its current epoch ${broker.epoch}`,
      );
    }
    return broker;
  }
}

function fencedAfter(isFenced: boolean, change: number): boolean {
  if (change === FencingChange.NONE) return isFenced;
  if (change === FencingChange.FENCE) return true;
  if (change === FencingChange.UNFENCE) return false;
  throw new MetadataReplayError(`fenced change ${change} is not defined`);
}
