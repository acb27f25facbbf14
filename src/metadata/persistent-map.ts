/**
 * The persistent map every image is built from (docs/decisions/0003-persistent-maps.md): an
 * immutable hash array mapped trie whose updates copy only the path to the changed entry, so a
 * new image shares every untouched topic, partition and broker with the image it came from.
 */
import { Map as ImmutableMap } from "immutable";

/** An immutable map with structural sharing; `set` and `delete` return a new map. */
export type PersistentMap<K, V> = ImmutableMap<K, V>;

export function emptyMap<K, V>(): PersistentMap<K, V> {
  return ImmutableMap<K, V>();
}

/**
 * Applies a batch of changes (undefined removes the key) to `base` in one pass, as a transient
 * edit that is sealed before it is returned; `base` itself is left as it was.
 */
export function applyChanges<K, V>(
  base: PersistentMap<K, V>,
  changes: ReadonlyMap<K, V | undefined>,
): PersistentMap<K, V> {
  if (changes.size === 0) return base;
  return base.withMutations((draft) => {
    for (const [key, value] of changes) {
      if (value === undefined) draft.delete(key);
      else draft.set(key, value);
    }
  });
}

/** The keys of `map` in ascending order, so that output built from a map is deterministic. */
export function sortedKeys<K extends string | number>(map: PersistentMap<K, unknown>): K[] {
  const keys = [...map.keys()];
  return keys.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
}

/** The entries of `map` in ascending key order. */
export function sortedEntries<K extends string | number, V>(map: PersistentMap<K, V>): [K, V][] {
  const entries = [...map.entries()];
  return entries.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
}
