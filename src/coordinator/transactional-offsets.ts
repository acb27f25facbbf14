/**
 * Offsets committed inside transactions (TxnOffsetCommit, KIP-98 and KIP-447) that are written
 * to `__consumer_offsets` but not yet visible: per offsets partition and producer id, the
 * records in write order (Kafka's pendingTransactionalOffsetCommits). An end marker on that
 * partition decides them: COMMIT makes them the group's offsets, ABORT drops them. Pure; the
 * group coordinator driver owns the one instance.
 */
import type { OffsetRecord } from "./offset-records.js";

/** Offsets of one group that a transaction committed, to apply in order. */
export interface CommittedTransactionalOffsets {
  readonly groupId: string;
  readonly records: readonly OffsetRecord[];
}

export class TransactionalOffsets {
  /** offsets partition -> producer id -> the pending records, oldest first. */
  private readonly pending = new Map<number, Map<number, OffsetRecord[]>>();

  /** Adds durable transactional records of `producerId` on offsets partition `partition`. */
  add(partition: number, producerId: number, records: readonly OffsetRecord[]): void {
    const producers = this.pending.get(partition) ?? new Map<number, OffsetRecord[]>();
    this.pending.set(partition, producers);
    const held = producers.get(producerId) ?? [];
    producers.set(producerId, [...held, ...records]);
  }

  /** Whether a group has offsets waiting for a transaction (Kafka refuses to delete it then). */
  hasPending(groupId: string): boolean {
    for (const producers of this.pending.values()) {
      for (const records of producers.values()) {
        if (records.some((record) => record.key.groupId === groupId)) return true;
      }
    }
    return false;
  }

  /**
   * The end marker of `producerId` on `partition`: its pending records leave; when committed
   * they are returned by group, in write order, for the caller to apply.
   */
  complete(
    partition: number,
    producerId: number,
    committed: boolean,
  ): CommittedTransactionalOffsets[] {
    const producers = this.pending.get(partition);
    const records = producers?.get(producerId);
    producers?.delete(producerId);
    if (producers?.size === 0) this.pending.delete(partition);
    if (records === undefined || !committed) return [];
    const byGroup = new Map<string, OffsetRecord[]>();
    for (const record of records) {
      const list = byGroup.get(record.key.groupId) ?? [];
      list.push(record);
      byGroup.set(record.key.groupId, list);
    }
    return [...byGroup].map(([groupId, grouped]) => ({ groupId, records: grouped }));
  }

  /** Forgets what partition `partition` held (its leadership moved). */
  unload(partition: number): void {
    this.pending.delete(partition);
  }
}
