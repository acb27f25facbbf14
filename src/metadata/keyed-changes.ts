/**
 * The pending changes to one persistent map of an image: entries set or removed by replayed
 * records, read through to the base map, and applied in one pass.
 */
import { applyChanges } from "./persistent-map.js";
import type { PersistentMap } from "./persistent-map.js";

/** Changes keyed like the image map they apply to; undefined marks a removal. */
export class KeyedChanges<K, V> {
  private readonly changes = new Map<K, V | undefined>();

  constructor(private readonly base: PersistentMap<K, V>) {}

  /** The value as the changes so far leave it. */
  get(key: K): V | undefined {
    return this.changes.has(key) ? this.changes.get(key) : this.base.get(key);
  }

  set(key: K, value: V): void {
    this.changes.set(key, value);
  }

  /** Removes `key`; removing a key that is not there changes nothing when applied. */
  remove(key: K): void {
    this.changes.set(key, undefined);
  }

  /** The changed keys and their new values (undefined for removed). */
  get changed(): ReadonlyMap<K, V | undefined> {
    return this.changes;
  }

  /**
   * After a snapshot has been replayed over the base: whatever the snapshot did not state no
   * longer exists, so every untouched key of the base is removed.
   */
  finishSnapshot(): void {
    for (const key of this.base.keys()) {
      if (!this.changes.has(key)) this.changes.set(key, undefined);
    }
  }

  /** The base map with the changes applied; the base itself when nothing changed. */
  apply(): PersistentMap<K, V> {
    return applyChanges(this.base, this.changes);
  }
}
