/**
 * Changes to resource configs, as Kafka's ConfigurationsDelta: a ConfigRecord sets one key of
 * one resource (a null value deletes it), removing a topic deletes all its configs, and a
 * resource left with no configs disappears from the image.
 */
import type { ConfigRecord } from "../protocol/index.js";
import { ConfigResourceType, configResourceKey } from "./images.js";
import type { ConfigResource, ConfigurationsImage, ResourceConfigs } from "./images.js";
import { KeyedChanges } from "./keyed-changes.js";
import { applyChanges, emptyMap } from "./persistent-map.js";

export interface ResourceChanges {
  readonly resource: ConfigResource;
  readonly values: KeyedChanges<string, string>;
}

export class ConfigurationsDelta {
  private readonly changes = new Map<string, ResourceChanges>();

  constructor(readonly image: ConfigurationsImage) {}

  /** The changed resources and, per key, the new value (undefined for deleted). */
  get changedResources(): ReadonlyMap<string, ResourceChanges> {
    return this.changes;
  }

  replayConfig(record: ConfigRecord): void {
    const values = this.resourceChanges({
      type: record.resourceType,
      name: record.resourceName,
    }).values;
    if (record.value === null) values.remove(record.name);
    else values.set(record.name, record.value);
  }

  /**
   * Deletes every config of the removed topic, including any set earlier in this same delta
   * (Kafka only clears configs the base image holds; clearing both keeps the image the same
   * wherever the batch boundaries fall).
   */
  replayRemoveTopic(topicName: string): void {
    const resource = { type: ConfigResourceType.TOPIC, name: topicName };
    const key = configResourceKey(resource);
    const base = this.image.resources.get(key)?.values ?? emptyMap<string, string>();
    const values = new KeyedChanges(base);
    values.finishSnapshot();
    this.changes.set(key, { resource, values });
  }

  /** After a snapshot: every config it did not state is deleted. */
  finishSnapshot(): void {
    for (const configs of this.image.resources.values()) this.resourceChanges(configs.resource);
    for (const { values } of this.changes.values()) values.finishSnapshot();
  }

  apply(): ConfigurationsImage {
    if (this.changes.size === 0) return this.image;
    const resources = new Map<string, ResourceConfigs | undefined>();
    for (const [key, { resource, values }] of this.changes) {
      const applied = values.apply();
      if (applied === this.image.resources.get(key)?.values) continue;
      resources.set(key, applied.size === 0 ? undefined : { resource, values: applied });
    }
    return { resources: applyChanges(this.image.resources, resources) };
  }

  private resourceChanges(resource: ConfigResource): ResourceChanges {
    const key = configResourceKey(resource);
    let changes = this.changes.get(key);
    if (changes === undefined) {
      const base = this.image.resources.get(key)?.values ?? emptyMap<string, string>();
      changes = { resource, values: new KeyedChanges(base) };
      this.changes.set(key, changes);
    }
    return changes;
  }
}
