/**
 * How the partition scenarios show a broker: its replica in one line (role, leader epoch, log
 * end offset, high watermark, ISR with a change in flight), the facts `check` compares, and its
 * log as `offset:epoch:value` per record, read back through the partition's own reader.
 */
import { decodeRecords, iterateBatches } from "../../../src/protocol/index.js";
import type { Partition } from "../../../src/replication/index.js";
import { ORDERS, type BrokerProcess } from "./broker.js";
import type { ScenarioWorld } from "./world.js";

const decoder = new TextDecoder();

/** The facts of one broker's replica, by name; "-" for an empty list. */
export function brokerFacts(process: BrokerProcess | undefined): Record<string, string> {
  if (process === undefined) return { role: "down" };
  const partition = process.partition;
  if (partition === undefined) return { role: "none" };
  const role = partition.role;
  const list = (ids: readonly number[]) => (ids.length === 0 ? "-" : ids.join(","));
  const facts: Record<string, string> = {
    role: role.kind,
    epoch: String(partition.leaderEpoch),
    leo: String(partition.logEndOffset),
    hw: String(partition.highWatermark),
    start: String(partition.logStartOffset),
  };
  if (role.kind === "leader") {
    facts["isr"] = list(partition.isr);
    facts["maximal-isr"] = list(partition.maximalIsr);
    facts["pending"] = pendingOf(partition);
  }
  if (role.kind === "follower") facts["leader"] = String(role.leaderId);
  facts["fetch"] = process.fetchState ?? "none";
  return facts;
}

/**
 * The replica manager's summary (what its metrics show) as facts: `leaders`, `partitions`,
 * `under-replicated`, `under-min-isr`, `at-min-isr`, `offline-replicas`, `reassigning`,
 * `isr-shrinks`, `isr-expands`, `failed-isr-updates`, `max-lag` and `lag` (the scenario
 * partition's follower lag, `-` while unknown).
 */
export function metricFacts(process: BrokerProcess): Record<string, string> {
  const summary = process.replicaManager.replicationSummary();
  const lag = summary.followerLags.find(
    ({ topicPartition }) => topicPartition.topic === ORDERS.topic,
  );
  const facts = {
    leaders: summary.leaderCount,
    partitions: summary.partitionCount,
    "under-replicated": summary.underReplicatedPartitions,
    "under-min-isr": summary.underMinIsrPartitionCount,
    "at-min-isr": summary.atMinIsrPartitionCount,
    "offline-replicas": summary.offlineReplicaCount,
    reassigning: summary.reassigningPartitions,
    "isr-shrinks": summary.isrShrinks,
    "isr-expands": summary.isrExpands,
    "failed-isr-updates": summary.failedIsrUpdates,
    "max-lag": summary.maxLag,
    lag: lag?.lag ?? "-",
  };
  return Object.fromEntries(Object.entries(facts).map(([name, value]) => [name, String(value)]));
}

function pendingOf(partition: Partition): string {
  const role = partition.role;
  if (role.kind !== "leader") return "none";
  const state = role.isrState;
  if (state.kind === "pendingExpand") return `+${state.newInSyncReplicaId}`;
  if (state.kind === "pendingShrink") return `-${state.outOfSyncReplicaIds.join(",")}`;
  return "none";
}

/** One broker in one line, e.g. `1: leader epoch=2 leo=5 hw=4 isr=1,2 pending=+3`. */
export function describeBroker(id: number, process: BrokerProcess | undefined): string {
  const facts = brokerFacts(process);
  const role = facts["role"] ?? "none";
  if (role === "down" || role === "none" || role === "offline") return `${id}: ${role}`;
  const shown = [`${id}: ${role}`];
  if (role === "follower") shown.push(`of ${facts["leader"]}`);
  shown.push(`epoch=${facts["epoch"]} leo=${facts["leo"]} hw=${facts["hw"]}`);
  if (facts["start"] !== "0") shown.push(`start=${facts["start"]}`);
  if (role === "leader") shown.push(`isr=${facts["isr"]}`);
  if (facts["pending"] !== undefined && facts["pending"] !== "none") {
    shown.push(`pending=${facts["pending"]}`);
  }
  const fetch = facts["fetch"];
  if (fetch !== undefined && fetch !== "none" && fetch !== "fetching") shown.push(`(${fetch})`);
  return shown.join(" ");
}

/** The records of a replica's log as `offset:epoch:value`, from its log start. */
export async function logOf(world: ScenarioWorld, partition: Partition): Promise<string[]> {
  const read = await world.run(
    partition.readLocal({
      fromOffset: partition.logStartOffset,
      maxOffset: partition.logEndOffset,
      maxBytes: 1 << 30,
    }),
  );
  if (read.kind === "error") return [`error ${read.errorCode}`];
  const shown: string[] = [];
  for (const bytes of read.records) {
    for (const entry of iterateBatches(bytes, { maxBatchBytes: 1 << 30 })) {
      if (entry.kind !== "batch") break;
      const decoded = decodeRecords(entry.bytes, { maxDecompressedBytes: 1 << 30 });
      if (!decoded.ok) return [...shown, "undecodable batch"];
      const epoch = decoded.header.partitionLeaderEpoch;
      for (const record of decoded.records) {
        const value = record.value === null ? "null" : decoder.decode(record.value);
        shown.push(`${record.offset}:${epoch}:${value}`);
      }
    }
  }
  return shown;
}
