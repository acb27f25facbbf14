/**
 * The features Sluice's nodes can run and a new cluster may start with (KIP-584, KIP-1022):
 * metadata.version and eligible.leader.replicas.version (KIP-966). A broker and a controller
 * announce these ranges when they register, and the controller refuses to finalize a level
 * outside them. `sluice format --feature NAME=LEVEL` picks the levels a new cluster starts with
 * (the bootstrap metadata); checking them and reading them back from the bootstrap records is
 * here.
 */
import { MetadataRecordType } from "../../protocol/index.js";
import type { MetadataRecord, UserScramCredentialRecord } from "../../protocol/index.js";
import type { BootstrapFeature, BootstrapOptions } from "./bootstrap.js";
import {
  METADATA_VERSION,
  METADATA_VERSION_LATEST,
  METADATA_VERSION_MIN,
} from "./metadata-version.js";
import type { FeatureRange } from "./supported-features.js";

/** The feature whose finalized level turns KIP-966 eligible leader replicas on. */
export const ELIGIBLE_LEADER_REPLICAS_FEATURE = "eligible.leader.replicas.version";

/** A feature the nodes can run: its levels, and the level a new cluster gets by default. */
export interface KnownFeature {
  readonly name: string;
  readonly minLevel: number;
  readonly maxLevel: number;
  readonly defaultLevel: number;
}

/**
 * Every feature the nodes can run. Eligible leader replicas stay off unless chosen, as in Kafka
 * 4.0, whose format leaves the feature at 0.
 */
export const KNOWN_FEATURES: readonly KnownFeature[] = [
  {
    name: METADATA_VERSION,
    minLevel: METADATA_VERSION_MIN,
    maxLevel: METADATA_VERSION_LATEST,
    defaultLevel: METADATA_VERSION_LATEST,
  },
  { name: ELIGIBLE_LEADER_REPLICAS_FEATURE, minLevel: 0, maxLevel: 1, defaultLevel: 0 },
];

/** The ranges a node announces in BrokerRegistration and ControllerRegistration. */
export function supportedFeatureRanges(): FeatureRange[] {
  return KNOWN_FEATURES.map(({ name, minLevel, maxLevel }) => ({
    name,
    minSupportedVersion: minLevel,
    maxSupportedVersion: maxLevel,
  }));
}

export type BootstrapChoice =
  | { readonly kind: "valid"; readonly options: BootstrapOptions }
  | { readonly kind: "invalid"; readonly message: string };

/**
 * The bootstrap options for the levels chosen by name; a feature not named gets its default.
 * An unknown feature, or a level outside what the nodes run, is refused with a message.
 */
export function bootstrapChoiceOf(levels: ReadonlyMap<string, number>): BootstrapChoice {
  for (const [name, level] of levels) {
    const known = KNOWN_FEATURES.find((feature) => feature.name === name);
    if (known === undefined) {
      const names = KNOWN_FEATURES.map((feature) => feature.name).join(", ");
      return { kind: "invalid", message: `unsupported feature ${name}; supported: ${names}` };
    }
    if (!Number.isSafeInteger(level) || level < known.minLevel || level > known.maxLevel) {
      const range = `${known.minLevel} to ${known.maxLevel}`;
      return { kind: "invalid", message: `${name} has no level ${level}; it runs ${range}` };
    }
  }
  const features: BootstrapFeature[] = KNOWN_FEATURES.filter(
    (feature) => feature.name !== METADATA_VERSION,
  ).map((feature) => ({
    name: feature.name,
    level: levels.get(feature.name) ?? feature.defaultLevel,
  }));
  const metadataVersion = levels.get(METADATA_VERSION) ?? METADATA_VERSION_LATEST;
  return { kind: "valid", options: { metadataVersion, features } };
}

/**
 * The bootstrap options the records of a bootstrap file hold: FeatureLevelRecords only, with
 * metadata.version among them (Kafka's BootstrapMetadata.fromRecords requires it), each level
 * one the nodes run.
 */
export function bootstrapChoiceFromRecords(records: readonly MetadataRecord[]): BootstrapChoice {
  const levels = new Map<string, number>();
  const scramCredentials: UserScramCredentialRecord[] = [];
  for (const record of records) {
    if (record.type === MetadataRecordType.UserScramCredentialRecord) {
      scramCredentials.push(record.data);
      continue;
    }
    if (record.type !== MetadataRecordType.FeatureLevelRecord) {
      return { kind: "invalid", message: `a record of type ${record.type} is not a feature level` };
    }
    levels.set(record.data.name, record.data.featureLevel);
  }
  if (!levels.has(METADATA_VERSION)) {
    return { kind: "invalid", message: `no ${METADATA_VERSION} level` };
  }
  const choice = bootstrapChoiceOf(levels);
  if (choice.kind === "invalid" || scramCredentials.length === 0) return choice;
  return { kind: "valid", options: { ...choice.options, scramCredentials } };
}
