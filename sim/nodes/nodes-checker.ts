/**
 * The independent checker of the whole-node simulation. It knows only the clients' history and
 * the final reads (what the wire said), and keeps its own oracle: the acknowledged values, the
 * values that surely failed, and every record a reader was shown. It imports nothing of src/,
 * so a bug in the production code cannot also be a bug in the judge. Invariants:
 *
 * - P1 no acknowledged acks=all write is lost: it is in the final log at the offset it was given.
 * - P2 one value per offset, and each value at most once (no producer retries a value).
 * - P3 no gaps: the final log holds every offset from 0 to its high watermark.
 * - P5 read consistency: a record a reader was shown (below the high watermark) is in the final
 *   log at the same offset.
 * - P6 one leader per partition epoch: no two Metadata answers name different leaders for the
 *   same leader epoch of a partition.
 * - P8 a fenced broker is never a leader nor in the ISR of a led partition: in each Metadata
 *   answer, the leader and the ISR are among the live brokers the same answer lists.
 * - P12 a write that surely failed is never visible.
 * - P13 committed group offsets never go back: an OffsetFetch asked after a commit was
 *   acknowledged returns at least that offset.
 */
import { InvariantViolation } from "../workloads/registry.js";
import type { History, HistoryEvent, PartitionKey, ReadRecord } from "./history.js";

type ReadEvent = Extract<HistoryEvent, { readonly kind: "read" }>;
type MetadataEvent = Extract<HistoryEvent, { readonly kind: "metadata" }>;
type OffsetEvent = Extract<HistoryEvent, { readonly kind: "commit" | "offset" }>;

/** The final log of each partition, read from offset 0 to the high watermark. */
export type FinalLogs = ReadonlyMap<PartitionKey, readonly ReadRecord[]>;

export interface CheckReport {
  readonly acknowledged: number;
  readonly failed: number;
  readonly undetermined: number;
  readonly recordsRead: number;
  readonly finalRecords: number;
  readonly offsetsCommitted: number;
}

export function checkHistory(history: History, logs: FinalLogs): CheckReport {
  const invoked = new Map<string, { partition: PartitionKey; acks: number }>();
  const acknowledged = new Map<string, number>();
  const failed = new Set<string>();
  let undetermined = 0;
  let recordsRead = 0;
  const commits: OffsetEvent[] = [];
  const leaders = new Map<string, { readonly leader: number; readonly nodeId: number }>();
  const indexes = new Map<PartitionKey, Map<number, string>>();
  for (const [partition, records] of logs) indexes.set(partition, logIndex(partition, records));
  for (const event of history.events) {
    if (event.kind === "invoke") invoked.set(event.value, event);
    else if (event.kind === "ok") acknowledged.set(event.value, event.offset);
    else if (event.kind === "fail") failed.add(event.value);
    else if (event.kind === "info") undetermined += 1;
    else if (event.kind === "metadata") {
      checkMetadata(event);
      checkOneLeaderPerEpoch(event, leaders);
    } else if (event.kind === "commit") commits.push(event);
    else if (event.kind === "offset") checkOffsetRead(event, commits);
    else if (event.kind === "read") {
      recordsRead += event.records.length;
      checkRead(event, indexes.get(event.partition) ?? new Map<number, string>());
    }
  }
  for (const [value, offset] of acknowledged) {
    const call = invoked.get(value);
    if (call === undefined || call.acks !== -1) continue;
    const final = indexes.get(call.partition)?.get(offset);
    if (final !== value) {
      violation(
        "P1",
        `acks=all write ${value} acknowledged at ${call.partition}@${offset} is lost: ` +
          `the final log has ${final ?? "nothing"} there`,
      );
    }
  }
  for (const [partition, index] of indexes) {
    for (const [offset, value] of index) {
      if (failed.has(value)) violation("P12", `${value} failed but is at ${partition}@${offset}`);
    }
  }
  const finalRecords = [...logs.values()].reduce((sum, records) => sum + records.length, 0);
  return {
    acknowledged: acknowledged.size,
    failed: failed.size,
    undetermined,
    recordsRead,
    finalRecords,
    offsetsCommitted: commits.length,
  };
}

/** P13 for one read of a group's offset: no commit acknowledged before it asked is newer. */
function checkOffsetRead(read: OffsetEvent, commits: readonly OffsetEvent[]): void {
  for (const commit of commits) {
    if (commit.group !== read.group || commit.atMs >= read.invokedAtMs) continue;
    if (commit.offset > read.offset) {
      violation(
        "P13",
        `${read.client} read offset ${read.offset} of group ${read.group} at ${read.atMs} ms, ` +
          `after offset ${commit.offset} was acknowledged at ${commit.atMs} ms`,
      );
    }
  }
}

/** P6 for one Metadata answer: each led partition epoch has the leader seen before, if any. */
function checkOneLeaderPerEpoch(
  event: MetadataEvent,
  leaders: Map<string, { readonly leader: number; readonly nodeId: number }>,
): void {
  for (const { partition, leader, leaderEpoch } of event.partitions) {
    if (leader < 0) continue;
    const key = `${partition}@${leaderEpoch}`;
    const seen = leaders.get(key);
    if (seen === undefined) leaders.set(key, { leader, nodeId: event.nodeId });
    else if (seen.leader !== leader) {
      violation(
        "P6",
        `node ${event.nodeId} names ${leader} leader of ${partition} in epoch ${leaderEpoch}, ` +
          `node ${seen.nodeId} named ${seen.leader}`,
      );
    }
  }
}

/** P8 for one Metadata answer: leaders and ISRs of led partitions are live brokers. */
function checkMetadata(event: MetadataEvent): void {
  const where = `node ${event.nodeId} told ${event.client} at ${event.atMs} ms`;
  for (const { partition, leader, isr } of event.partitions) {
    if (leader < 0) continue;
    const fenced = [leader, ...isr].filter((broker) => !event.brokers.includes(broker));
    if (fenced.length > 0) {
      violation(
        "P8",
        `${where}: ${partition} led by ${leader} with ISR [${isr.join(",")}], ` +
          `but brokers ${fenced.join(",")} are not live (live: ${event.brokers.join(",")})`,
      );
    }
  }
}

/** P5 for one read: each record shown is below the high watermark and in the final log. */
function checkRead(event: ReadEvent, index: ReadonlyMap<number, string>): void {
  const where = `${event.client} at ${event.atMs} ms`;
  for (const record of event.records) {
    const at = `${event.partition}@${record.offset}`;
    if (record.offset >= event.highWatermark) {
      violation("P5", `${where} was shown ${at}, above the high watermark ${event.highWatermark}`);
    }
    const final = index.get(record.offset);
    if (final !== record.value) {
      violation(
        "P5",
        `${where} read ${record.value} at ${at}; the final log has ${final ?? "nothing"}`,
      );
    }
  }
}

/** The final log of one partition by offset, after checking P2 and P3 on it. */
function logIndex(partition: PartitionKey, records: readonly ReadRecord[]): Map<number, string> {
  const index = new Map<number, string>();
  const seen = new Set<string>();
  for (const [position, record] of records.entries()) {
    if (record.offset !== position) {
      violation("P3", `${partition} has offset ${record.offset} where ${position} belongs`);
    }
    if (seen.has(record.value)) violation("P2", `${record.value} is twice in ${partition}`);
    seen.add(record.value);
    index.set(record.offset, record.value);
  }
  return index;
}

function violation(invariant: string, message: string): never {
  throw new InvariantViolation(`${invariant}: ${message}`);
}
