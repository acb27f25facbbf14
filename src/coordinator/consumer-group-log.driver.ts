/**
 * Writes consumer groups (KIP-848) to `__consumer_offsets` as Kafka's coordinator records, so
 * that a coordinator that loads the partition (after a restart or a leadership move) rebuilds
 * every group with its epochs, members and assignments. After a change, the difference between
 * the group's records now and the ones last made durable is appended with acks=-1, and the
 * request that changed the group is answered once it is durable. Writes of one group run one
 * after another, each computing its difference when it starts, so the log ends with the latest
 * state even when changes overlap; a failed write is retried by the group's next one.
 */
import { ErrorCode } from "../common/index.js";
import type { Timers } from "../ports/index.js";
import type { ReplicaManager } from "../replication/index.js";
import {
  consumerGroupEntries,
  recordsBetween,
  type GroupRecordEntry,
  type PersistedConsumerGroup,
} from "./consumer-group-records.js";
import { SerialWrites } from "./serial-writes.driver.js";
import { appendDurably, commitErrorOf } from "./offset-writes.driver.js";

export interface ConsumerGroupLogOptions {
  readonly replicaManager: ReplicaManager;
  readonly timers: Timers;
  /** The group's offsets partition. */
  readonly partitionFor: (groupId: string) => number;
  /** The group as it is now, or undefined once it is gone. */
  readonly groupOf: (groupId: string) => PersistedConsumerGroup | undefined;
  readonly nowMs: () => number;
  /** How long a write waits for its replicas (`offsets.commit.timeout.ms`). */
  readonly timeoutMs: number;
}

export class ConsumerGroupLog {
  /** The records last made durable, per group. */
  private readonly written = new Map<string, Map<string, GroupRecordEntry>>();
  private readonly writes = new SerialWrites();

  constructor(private readonly options: ConsumerGroupLogOptions) {}

  /** Takes the group as loaded from the log as what is written. */
  loaded(groupId: string, group: PersistedConsumerGroup): void {
    this.written.set(groupId, consumerGroupEntries(groupId, group));
  }

  /** Whether records of the group were written (and not yet tombstoned). */
  hasWritten(groupId: string): boolean {
    return this.written.has(groupId);
  }

  /** Forgets the groups `belongs` selects (their partition moved away). */
  unload(belongs: (groupId: string) => boolean): void {
    for (const groupId of [...this.written.keys()]) {
      if (belongs(groupId)) this.written.delete(groupId);
    }
  }

  /** Writes what changed in the group; resolves to NONE once durable, or the error. */
  persist(groupId: string): Promise<number> {
    // A write that failed does not stop the next, which writes its changes too.
    return this.writes.run(groupId, () => this.writeChanges(groupId));
  }

  /** Waits for every write under way. */
  async drain(): Promise<void> {
    await this.writes.drain();
  }

  private async writeChanges(groupId: string): Promise<number> {
    const written = this.written.get(groupId) ?? new Map<string, GroupRecordEntry>();
    const next = consumerGroupEntries(groupId, this.options.groupOf(groupId));
    const nowMs = this.options.nowMs();
    const records = recordsBetween(written, next, nowMs);
    if (records.length === 0) return ErrorCode.NONE;
    const { replicaManager, timers, timeoutMs } = this.options;
    const partition = this.options.partitionFor(groupId);
    const appended = await appendDurably(replicaManager, partition, { records, timers, timeoutMs });
    if (appended !== ErrorCode.NONE) return commitErrorOf(appended);
    if (next.size === 0) this.written.delete(groupId);
    else this.written.set(groupId, next);
    return ErrorCode.NONE;
  }
}
