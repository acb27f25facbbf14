/**
 * The cluster's health as the dashboard's first line says it, in the spirit of `rpk cluster
 * health`: healthy when a controller quorum leader is known, no broker is fenced and no
 * partition is offline or under-replicated; otherwise each reason, worst first. `unavailable`
 * means some data cannot be read or written (no quorum leader, or offline partitions);
 * `degraded` means it can, with less redundancy than asked for.
 */

export interface ClusterHealth {
  readonly status: "healthy" | "degraded" | "unavailable";
  readonly reasons: readonly string[];
}

export interface ClusterHealthInput {
  readonly leaderId: number | undefined;
  readonly brokers: readonly {
    readonly id: number;
    readonly isFenced: boolean;
    readonly inControlledShutdown: boolean;
  }[];
  readonly replication: {
    readonly offlinePartitions: number;
    readonly underReplicatedPartitions: number;
    readonly underMinIsrPartitions: number;
  };
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;

export function clusterHealthOf(input: ClusterHealthInput): ClusterHealth {
  const unavailable: string[] = [];
  const degraded: string[] = [];
  if (input.leaderId === undefined) unavailable.push("no controller quorum leader is known");
  const { offlinePartitions, underReplicatedPartitions, underMinIsrPartitions } = input.replication;
  if (offlinePartitions > 0) {
    unavailable.push(`${plural(offlinePartitions, "partition")} offline (no leader)`);
  }
  if (underMinIsrPartitions > 0) {
    degraded.push(`${plural(underMinIsrPartitions, "partition")} under min ISR`);
  }
  if (underReplicatedPartitions > 0) {
    degraded.push(`${plural(underReplicatedPartitions, "partition")} under-replicated`);
  }
  const fenced = input.brokers.filter((broker) => broker.isFenced).map((broker) => broker.id);
  if (fenced.length > 0) {
    degraded.push(`${fenced.length === 1 ? "broker" : "brokers"} ${fenced.join(", ")} fenced`);
  }
  const stopping = input.brokers.filter((broker) => broker.inControlledShutdown);
  if (stopping.length > 0) {
    const ids = stopping.map((broker) => broker.id).join(", ");
    degraded.push(`${stopping.length === 1 ? "broker" : "brokers"} ${ids} in controlled shutdown`);
  }
  const reasons = [...unavailable, ...degraded];
  if (unavailable.length > 0) return { status: "unavailable", reasons };
  return { status: degraded.length > 0 ? "degraded" : "healthy", reasons };
}
