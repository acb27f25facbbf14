/**
 * Operations waiting on each watch key, in the order they were added. An operation watched under
 * several keys appears in each list; once it completes, the other lists still hold it until they
 * are scanned or purged, which is why the purgatory counts such stale entries and purges them.
 */
export class WatchLists<Entry> {
  private readonly byKey = new Map<string, Entry[]>();

  /** How many keys have a list. */
  get keyCount(): number {
    return this.byKey.size;
  }

  add(key: string, entry: Entry): void {
    const list = this.byKey.get(key);
    if (list === undefined) this.byKey.set(key, [entry]);
    else list.push(entry);
  }

  /** A copy of the list of `key`, so that callbacks may add to it while the caller iterates. */
  snapshot(key: string): readonly Entry[] {
    return [...(this.byKey.get(key) ?? [])];
  }

  /**
   * Drops the entries of `key` that `isStale` accepts, and the key when its list empties;
   * returns how many were dropped.
   */
  purgeKey(key: string, isStale: (entry: Entry) => boolean): number {
    const list = this.byKey.get(key);
    if (list === undefined) return 0;
    const kept = list.filter((entry) => !isStale(entry));
    if (kept.length === 0) this.byKey.delete(key);
    else this.byKey.set(key, kept);
    return list.length - kept.length;
  }

  /** Purges every key; returns how many entries were dropped. */
  purgeAll(isStale: (entry: Entry) => boolean): number {
    let dropped = 0;
    for (const key of [...this.byKey.keys()]) dropped += this.purgeKey(key, isStale);
    return dropped;
  }

  /** The number of entries in the list of `key`, stale ones included. */
  watchedCount(key: string): number {
    return this.byKey.get(key)?.length ?? 0;
  }
}
