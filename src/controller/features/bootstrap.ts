/**
 * The records a new cluster's metadata log starts with, as Kafka's BootstrapMetadata: the
 * finalized metadata.version, then any other finalized feature. A single-node cluster starts the
 * same way; its broker registers through the ordinary BrokerRegistration path once it runs.
 */
import { assert } from "../../common/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { MetadataRecord, UserScramCredentialRecord } from "../../protocol/index.js";
import {
  METADATA_VERSION,
  METADATA_VERSION_LATEST,
  isSupportedMetadataVersion,
} from "./metadata-version.js";

/** A finalized feature other than metadata.version, e.g. { name: "group.version", level: 1 }. */
export interface BootstrapFeature {
  readonly name: string;
  readonly level: number;
}

export interface BootstrapOptions {
  /** The metadata.version level; METADATA_VERSION_LATEST when absent. */
  readonly metadataVersion?: number;
  /** Other finalized features; a level of 0 means "not finalized" and writes nothing. */
  readonly features?: readonly BootstrapFeature[];
  /** SCRAM users the cluster starts with (`format --add-scram`), after the feature levels. */
  readonly scramCredentials?: readonly UserScramCredentialRecord[];
}

export function featureLevelRecord(name: string, level: number): MetadataRecord {
  return {
    type: MetadataRecordType.FeatureLevelRecord,
    version: 0,
    data: { name, featureLevel: level },
  };
}

/**
 * The bootstrap records of a new cluster: metadata.version first (every later record is read at
 * that level), then the other features in name order. Throws on a level the controller cannot
 * run, since starting a cluster at it would be a configuration mistake, not a request.
 */
export function bootstrapRecords(options: BootstrapOptions = {}): MetadataRecord[] {
  const level = options.metadataVersion ?? METADATA_VERSION_LATEST;
  assert(isSupportedMetadataVersion(level), `metadata.version ${level} is not supported`);
  const records = [featureLevelRecord(METADATA_VERSION, level)];
  const features = [...(options.features ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const feature of features) {
    assert(feature.name !== METADATA_VERSION, "metadata.version is set by metadataVersion");
    if (feature.level > 0) records.push(featureLevelRecord(feature.name, feature.level));
  }
  for (const credential of options.scramCredentials ?? []) {
    records.push({
      type: MetadataRecordType.UserScramCredentialRecord,
      version: 0,
      data: credential,
    });
  }
  return records;
}
