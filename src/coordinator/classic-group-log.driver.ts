/**
 * Writes classic groups' GroupMetadata records to `__consumer_offsets` (Kafka's storeGroup):
 * each record, or tombstone, is appended with acks=-1 after the group's earlier writes, and its
 * outcome is NONE once the high watermark covers it, or the append's error as Kafka maps it
 * for group requests (appendGroupMetadataErrorToResponseError). A record is stamped with the
 * wall-clock time of its write as the group's current state timestamp. A tombstone is written
 * only for a group whose record may be in the log (written, tried, or loaded).
 */
import { ErrorCode } from "../common/index.js";
import type { Timers } from "../ports/index.js";
import type { ReplicaManager } from "../replication/index.js";
import { groupMetadataRecord, type ClassicGroupStore } from "./classic-group-records.js";
import { appendDurably, groupMetadataErrorOf } from "./offset-writes.driver.js";
import { SerialWrites } from "./serial-writes.driver.js";

export interface ClassicGroupLogOptions {
  readonly replicaManager: ReplicaManager;
  readonly timers: Timers;
  /** The group's offsets partition. */
  readonly partitionFor: (groupId: string) => number;
  /** Wall-clock ms, for the records' timestamps. */
  readonly wallClockMs: () => number;
  /** How long a write waits for its replicas (`offsets.commit.timeout.ms`). */
  readonly timeoutMs: number;
}

export class ClassicGroupLog {
  /** Groups whose record may be in the log. */
  private readonly written = new Set<string>();
  private readonly writes = new SerialWrites();

  constructor(private readonly options: ClassicGroupLogOptions) {}

  /** A group loaded from its record. */
  loaded(groupId: string): void {
    this.written.add(groupId);
  }

  /** Forgets the groups `belongs` selects (their partition moved away). */
  unload(belongs: (groupId: string) => boolean): void {
    for (const groupId of [...this.written]) if (belongs(groupId)) this.written.delete(groupId);
  }

  /** Writes a group's record or tombstone; resolves to NONE once durable, or the error. */
  write(store: ClassicGroupStore): Promise<number> {
    return this.writes.run(store.groupId, () => this.append(store));
  }

  /** Waits for every write under way. */
  drain(): Promise<void> {
    return this.writes.drain();
  }

  private async append({ groupId, record }: ClassicGroupStore): Promise<number> {
    if (record === null && !this.written.has(groupId)) return ErrorCode.NONE;
    const nowMs = this.options.wallClockMs();
    const stamped = record === null ? null : { ...record, currentStateTimestampMs: nowMs };
    if (record !== null) this.written.add(groupId);
    const { replicaManager, timers, timeoutMs } = this.options;
    const records = [groupMetadataRecord(groupId, stamped, nowMs)];
    const partition = this.options.partitionFor(groupId);
    const appended = await appendDurably(replicaManager, partition, { records, timers, timeoutMs });
    if (appended === ErrorCode.NONE && record === null) this.written.delete(groupId);
    return groupMetadataErrorOf(appended);
  }
}
