/**
 * UpdateFeatures (KIP-584) as Kafka's FeatureControlManager decides it: each update names a
 * feature, a level and an upgrade type (1 upgrade, 2 safe downgrade, 3 unsafe downgrade; v0's
 * allowDowngrade is a safe downgrade). An update is refused with INVALID_UPDATE_VERSION when the
 * level is negative, when this controller or any registered broker or controller cannot run it,
 * when it lowers a level under the upgrade type or raises one under a downgrade type, and, for
 * metadata.version, when a downgrade crosses a level that changed the metadata (Kafka refuses
 * those, unsafe ones included). The first refusal fails the whole request; otherwise every level
 * is written in one atomic batch (nothing with validateOnly).
 *
 * A metadata.version upgrade from below 17 (3.7-IV2) to 17 or more is refused, a Sluice rule:
 * Kafka's brokers register again at that point to announce their log dirs, which Sluice's
 * brokers do not do. Turning eligible leader replicas off is reported (`turnsElrOff`), for the
 * caller to clear the ELRs in the same batch (election/clear-elr.ts).
 */
import { brokerId, ErrorCode } from "../../common/index.js";
import { DIRECTORY_ASSIGNMENT_METADATA_VERSION, type MetadataImage } from "../../metadata/index.js";
import type { MetadataRecord, UpdateFeaturesRequest } from "../../protocol/index.js";
import { featureLevelRecord } from "./bootstrap.js";
import { ELIGIBLE_LEADER_REPLICAS_FEATURE, KNOWN_FEATURES } from "./known-features.js";
import { METADATA_VERSION } from "./metadata-version.js";
import type { FeatureRange } from "./supported-features.js";

/** Kafka's FeatureUpdate.UpgradeType codes. */
export const UpgradeType = { UPGRADE: 1, SAFE_DOWNGRADE: 2, UNSAFE_DOWNGRADE: 3 } as const;

/**
 * The metadata.version levels (from 7, the oldest Sluice runs) whose step from the level below
 * changed the metadata, as Kafka's MetadataVersion marks them: a downgrade across one of these
 * could lose metadata.
 */
const METADATA_CHANGING_LEVELS: ReadonlySet<number> = new Set([7, 8, 11, 13, 14, 15, 17, 23]);

/** One update as the controller weighs it, whatever the request version. */
export interface FeatureUpdate {
  readonly feature: string;
  readonly level: number;
  readonly upgradeType: number;
}

/** The outcome of a request: the records to write and the error, NONE when all went through. */
export interface FeatureUpdateOutcome {
  readonly records: readonly MetadataRecord[];
  readonly errorCode: number;
  readonly errorMessage: string | null;
  /** True when the records turn eligible leader replicas off: the ELRs must be cleared too. */
  readonly turnsElrOff: boolean;
}

/** The updates of `request` as received at `version`. */
export function featureUpdatesOf(request: UpdateFeaturesRequest, version: number): FeatureUpdate[] {
  return request.featureUpdates.map((update) => ({
    feature: update.feature,
    level: update.maxVersionLevel,
    upgradeType:
      version >= 1
        ? update.upgradeType
        : update.allowDowngrade
          ? UpgradeType.SAFE_DOWNGRADE
          : UpgradeType.UPGRADE,
  }));
}

/** The controller deciding: its own id and the quorum's voters, which must all have registered. */
export interface DecidingController {
  readonly nodeId: number;
  readonly voterIds: readonly number[];
}

/** Decides `updates` against the cluster of `image`, as `controller`. */
export function decideFeatureUpdates(
  image: MetadataImage,
  controller: DecidingController,
  updates: readonly FeatureUpdate[],
  validateOnly: boolean,
): FeatureUpdateOutcome {
  const records: MetadataRecord[] = [];
  let turnsElrOff = false;
  for (const update of updates) {
    const refusal = refusalOf(image, controller, update);
    if (refusal !== undefined) {
      const errorMessage =
        "The update failed for all features since the following feature had an error: " + refusal;
      const errorCode = ErrorCode.INVALID_UPDATE_VERSION;
      return { records: [], errorCode, errorMessage, turnsElrOff: false };
    }
    records.push(featureLevelRecord(update.feature, update.level));
    const isElrOff = update.feature === ELIGIBLE_LEADER_REPLICAS_FEATURE && update.level === 0;
    turnsElrOff ||= isElrOff && currentLevel(image, update.feature) > 0;
  }
  if (validateOnly)
    return { records: [], errorCode: ErrorCode.NONE, errorMessage: null, turnsElrOff: false };
  return { records, errorCode: ErrorCode.NONE, errorMessage: null, turnsElrOff };
}

/** Why `update` cannot be made, as Kafka words it, or undefined when it can. */
function refusalOf(
  image: MetadataImage,
  controller: DecidingController,
  update: FeatureUpdate,
): string | undefined {
  const reason = generalRefusalOf(image, controller, update);
  if (reason !== undefined) {
    return `Invalid update version ${update.level} for feature ${update.feature}. ${reason}`;
  }
  if (update.feature !== METADATA_VERSION) return undefined;
  return metadataVersionRefusal(currentLevel(image, update.feature), update);
}

/** The refusals of any feature: the upgrade type, the level, what the nodes run, direction. */
function generalRefusalOf(
  image: MetadataImage,
  controller: DecidingController,
  update: FeatureUpdate,
): string | undefined {
  const { feature, level, upgradeType } = update;
  if (upgradeType < UpgradeType.UPGRADE || upgradeType > UpgradeType.UNSAFE_DOWNGRADE) {
    return "The controller does not support the given upgrade type.";
  }
  if (level < 0) return "A feature version cannot be less than 0.";
  const known = KNOWN_FEATURES.find((candidate) => candidate.name === feature);
  const local = known === undefined ? DISABLED : { min: known.minLevel, max: known.maxLevel };
  const notSupported =
    reasonNotSupported(level, `Local controller ${controller.nodeId}`, local) ??
    clusterReasonNotSupported(image, controller, feature, level);
  if (notSupported !== undefined) return notSupported;
  if (known === undefined) return `Feature ${feature} not found.`;
  const current = currentLevel(image, feature);
  if (level < current && upgradeType === UpgradeType.UPGRADE) {
    return (
      "Can't downgrade the version of this feature without setting the upgrade type to " +
      "either safe or unsafe downgrade."
    );
  }
  if (level > current && upgradeType !== UpgradeType.UPGRADE) {
    return "Can't downgrade to a newer version.";
  }
  return undefined;
}

/** The metadata.version (3.7-IV0) from which controllers register with the active controller. */
const CONTROLLER_REGISTRATION_METADATA_VERSION = 15;

/** The range of a feature a node does not name: level 0 only. */
const DISABLED = { min: 0, max: 0 };

function reasonNotSupported(
  level: number,
  what: string,
  range: { readonly min: number; readonly max: number },
): string | undefined {
  if (level >= range.min && level <= range.max) return undefined;
  if (range.max === 0) return `${what} does not support this feature.`;
  const shown = range.min === range.max ? `${range.min}` : `${range.min}-${range.max}`;
  return `${what} only supports versions ${shown}`;
}

/**
 * The first registered broker, then controller, that cannot run `level` of `feature`, or a voter
 * that has not registered (from the metadata version where controllers register, as Kafka
 * checks: it cannot say what that voter runs).
 */
function clusterReasonNotSupported(
  image: MetadataImage,
  controller: DecidingController,
  feature: string,
  level: number,
): string | undefined {
  const rangeOf = (supported: readonly FeatureRange[]) => {
    const range = supported.find((candidate) => candidate.name === feature);
    return range === undefined
      ? DISABLED
      : { min: range.minSupportedVersion, max: range.maxSupportedVersion };
  };
  for (const [id, broker] of image.cluster.brokers) {
    const reason = reasonNotSupported(level, `Broker ${id}`, rangeOf(broker.supportedFeatures));
    if (reason !== undefined) return reason;
  }
  if ((image.features.metadataVersion ?? 0) < CONTROLLER_REGISTRATION_METADATA_VERSION) {
    return undefined;
  }
  for (const [id, registered] of image.cluster.controllers) {
    if (id === controller.nodeId) continue;
    const range = rangeOf(registered.supportedFeatures);
    const reason = reasonNotSupported(level, `Controller ${id}`, range);
    if (reason !== undefined) return reason;
  }
  const unregistered = controller.voterIds.find(
    (id) => id !== controller.nodeId && !image.cluster.controllers.has(brokerId(id)),
  );
  if (unregistered === undefined) return undefined;
  return `controller ${unregistered} has not registered, and may not support this feature`;
}

function currentLevel(image: MetadataImage, feature: string): number {
  if (feature === METADATA_VERSION) return image.features.metadataVersion ?? 0;
  return image.features.finalizedLevels.get(feature) ?? 0;
}

function metadataVersionRefusal(current: number, update: FeatureUpdate): string | undefined {
  const { level, upgradeType } = update;
  const prefix = `Invalid metadata.version ${level}.`;
  if (level < current) {
    let changed = false;
    for (let step = level + 1; step <= current; step++) {
      if (METADATA_CHANGING_LEVELS.has(step)) changed = true;
    }
    if (!changed) return undefined;
    if (upgradeType === UpgradeType.UNSAFE_DOWNGRADE) {
      return `${prefix} Unsafe metadata downgrade is not supported in this version.`;
    }
    return (
      `${prefix} Refusing to perform the requested downgrade because it might delete ` +
      "metadata information."
    );
  }
  const crossesDirectories =
    current < DIRECTORY_ASSIGNMENT_METADATA_VERSION &&
    level >= DIRECTORY_ASSIGNMENT_METADATA_VERSION;
  if (crossesDirectories) {
    return (
      `${prefix} Upgrading past ${DIRECTORY_ASSIGNMENT_METADATA_VERSION} (3.7-IV2) needs every ` +
      "broker to register again with its log dirs, which Sluice does not do yet."
    );
  }
  return undefined;
}
