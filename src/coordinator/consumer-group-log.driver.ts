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
import { OFFSETS_TOPIC } from "./group-config.js";
import { encodeCoordinatorBatch } from "./offset-records.js";
import { awaitDurable, commitErrorOf } from "./offset-writes.driver.js";

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
  private readonly chains = new Map<string, Promise<number>>();

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
    const previous = this.chains.get(groupId) ?? Promise.resolve(ErrorCode.NONE as number);
    // A write that failed does not stop the next, which writes its changes too.
    const write = () => this.writeChanges(groupId);
    const next = previous.then(write, write);
    this.chains.set(groupId, next);
    return next.finally(() => {
      if (this.chains.get(groupId) === next) this.chains.delete(groupId);
    });
  }

  /** Waits for every write under way. */
  async drain(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }

  private async writeChanges(groupId: string): Promise<number> {
    const written = this.written.get(groupId) ?? new Map<string, GroupRecordEntry>();
    const next = consumerGroupEntries(groupId, this.options.groupOf(groupId));
    const nowMs = this.options.nowMs();
    const records = recordsBetween(written, next, nowMs);
    if (records.length === 0) return ErrorCode.NONE;
    const { replicaManager } = this.options;
    const topicPartition = { topic: OFFSETS_TOPIC, partition: this.options.partitionFor(groupId) };
    const lookup = replicaManager.getPartitionOrError(topicPartition);
    if (lookup.kind === "error" || !lookup.partition.isLeader) return ErrorCode.NOT_COORDINATOR;
    const appended = await replicaManager.appendRecords(
      [{ topicPartition, records: encodeCoordinatorBatch(records) }],
      { requiredAcks: -1, origin: "client" },
    );
    const outcome = appended.results[0]?.outcome;
    if (outcome === undefined) return ErrorCode.UNKNOWN_SERVER_ERROR;
    if (outcome.kind === "error") return commitErrorOf(outcome.errorCode);
    const durable = await awaitDurable(lookup.partition, outcome.lastOffset + 1, {
      timers: this.options.timers,
      timeoutMs: this.options.timeoutMs,
    });
    if (durable !== ErrorCode.NONE) return durable;
    if (next.size === 0) this.written.delete(groupId);
    else this.written.set(groupId, next);
    return ErrorCode.NONE;
  }
}
