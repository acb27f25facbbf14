/**
 * Changes to client quotas, as Kafka's ClientQuotasDelta: a ClientQuotaRecord sets or removes
 * one quota of one entity, and an entity left with no quota disappears from the image.
 */
import type { ClientQuotaRecord } from "../protocol/index.js";
import { clientQuotaEntityKey } from "./images.js";
import type { ClientQuotaEntityPart, ClientQuotaImage, ClientQuotasImage } from "./images.js";
import { KeyedChanges } from "./keyed-changes.js";
import { applyChanges, emptyMap } from "./persistent-map.js";

interface EntityChanges {
  readonly entity: readonly ClientQuotaEntityPart[];
  readonly quotas: KeyedChanges<string, number>;
}

function sortedEntity(entity: readonly ClientQuotaEntityPart[]): ClientQuotaEntityPart[] {
  const parts = entity.map(({ entityType, entityName }) => ({ entityType, entityName }));
  return parts.sort((left, right) => (left.entityType < right.entityType ? -1 : 1));
}

export class ClientQuotasDelta {
  private readonly changes = new Map<string, EntityChanges>();

  constructor(readonly image: ClientQuotasImage) {}

  /** Keys (clientQuotaEntityKey) of the entities whose quotas changed. */
  changedEntityKeys(): string[] {
    return [...this.changes.keys()];
  }

  replayClientQuota(record: ClientQuotaRecord): void {
    const quotas = this.entityChanges(record.entity).quotas;
    if (record.remove) quotas.remove(record.key);
    else quotas.set(record.key, record.value);
  }

  /** After a snapshot: every quota it did not state is removed. */
  finishSnapshot(): void {
    for (const quota of this.image.entities.values()) this.entityChanges(quota.entity);
    for (const { quotas } of this.changes.values()) quotas.finishSnapshot();
  }

  apply(): ClientQuotasImage {
    if (this.changes.size === 0) return this.image;
    const entities = new Map<string, ClientQuotaImage | undefined>();
    for (const [key, { entity, quotas }] of this.changes) {
      const applied = quotas.apply();
      if (applied === this.image.entities.get(key)?.quotas) continue;
      entities.set(key, applied.size === 0 ? undefined : { entity, quotas: applied });
    }
    return { entities: applyChanges(this.image.entities, entities) };
  }

  private entityChanges(entity: readonly ClientQuotaEntityPart[]): EntityChanges {
    const key = clientQuotaEntityKey(entity);
    let changes = this.changes.get(key);
    if (changes === undefined) {
      const base = this.image.entities.get(key)?.quotas ?? emptyMap<string, number>();
      changes = { entity: sortedEntity(entity), quotas: new KeyedChanges(base) };
      this.changes.set(key, changes);
    }
    return changes;
  }
}
