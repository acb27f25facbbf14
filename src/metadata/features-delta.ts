/**
 * Changes to finalized features, as Kafka's FeaturesDelta: metadata.version is tracked apart
 * from the other features, and a level of 0 removes a feature.
 */
import type { FeatureLevelRecord, ZkMigrationStateRecord } from "../protocol/index.js";
import type { FeaturesImage } from "./images.js";
import { KeyedChanges } from "./keyed-changes.js";

/** The name of the feature that versions the metadata log itself. */
export const METADATA_VERSION_FEATURE = "metadata.version";
/** The metadata.version level that brought JBOD log dir assignment (Kafka's 3.7-IV2, KIP-858). */
export const DIRECTORY_ASSIGNMENT_METADATA_VERSION = 17;

export class FeaturesDelta {
  /** Other features set (their level) or removed (undefined). */
  readonly finalizedLevels: KeyedChanges<string, number>;
  /** The new metadata.version level; null when a snapshot left it out. */
  private metadataVersionChange: number | null | undefined;
  private zkMigrationStateChange: number | undefined;

  constructor(readonly image: FeaturesImage) {
    this.finalizedLevels = new KeyedChanges(image.finalizedLevels);
  }

  /** The new metadata.version level, or undefined when this delta does not change it. */
  get metadataVersionChanged(): number | undefined {
    return this.metadataVersionChange ?? undefined;
  }

  replayFeatureLevel(record: FeatureLevelRecord): void {
    if (record.name === METADATA_VERSION_FEATURE) this.metadataVersionChange = record.featureLevel;
    else if (record.featureLevel === 0) this.finalizedLevels.remove(record.name);
    else this.finalizedLevels.set(record.name, record.featureLevel);
  }

  /** Replays a ZkMigrationStateRecord, kept so that logs of migrated clusters round-trip. */
  replayZkMigrationState(record: ZkMigrationStateRecord): void {
    this.zkMigrationStateChange = record.zkMigrationState;
  }

  /**
   * After a snapshot: features it did not state are no longer finalized. Kafka's snapshots
   * always state metadata.version; one that does not leaves the image without it.
   */
  finishSnapshot(): void {
    this.finalizedLevels.finishSnapshot();
    this.metadataVersionChange ??= null;
    this.zkMigrationStateChange ??= 0;
  }

  apply(): FeaturesImage {
    return {
      metadataVersion:
        this.metadataVersionChange === undefined
          ? this.image.metadataVersion
          : (this.metadataVersionChange ?? undefined),
      finalizedLevels: this.finalizedLevels.apply(),
      zkMigrationState: this.zkMigrationStateChange ?? this.image.zkMigrationState,
    };
  }
}
