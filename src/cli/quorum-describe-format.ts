/**
 * The output of `sluice quorum describe`, as Kafka's kafka-metadata-quorum.sh prints it: the
 * status summary (--status) and the replication table (--replication), as text or JSON.
 */
import { isUuid, uuidToBase64, ZERO_UUID } from "../common/index.js";
import type { DescribeQuorumResponsePartitionData } from "../protocol/index.js";

type Replica = DescribeQuorumResponsePartitionData["currentVoters"][number];

/** A controller's listeners by node id, from DescribeQuorum v2's `nodes`. */
export type Endpoints = ReadonlyMap<number, readonly string[]>;

function directoryIdText(replica: Replica): string {
  const id = replica.replicaDirectoryId;
  return isUuid(id) ? uuidToBase64(id) : uuidToBase64(ZERO_UUID);
}

/** The quorum's status, in Kafka's field names. */
export function quorumStatus(
  clusterId: string,
  partition: DescribeQuorumResponsePartitionData,
  endpoints: Endpoints,
): Record<string, unknown> {
  const leader = partition.currentVoters.find((voter) => voter.replicaId === partition.leaderId);
  const leaderEnd = leader?.logEndOffset ?? partition.highWatermark;
  // As Kafka's tool: the laggiest voter sets both lag figures.
  let laggiest = leader;
  for (const voter of partition.currentVoters) {
    if (laggiest === undefined || voter.logEndOffset < laggiest.logEndOffset) laggiest = voter;
  }
  const maxFollowerLagTimeMs =
    laggiest === leader
      ? 0
      : (leader?.lastCaughtUpTimestamp ?? -1) >= 0 && (laggiest?.lastCaughtUpTimestamp ?? -1) >= 0
        ? (leader?.lastCaughtUpTimestamp ?? 0) - (laggiest?.lastCaughtUpTimestamp ?? 0)
        : -1;
  return {
    ClusterId: clusterId,
    LeaderId: partition.leaderId,
    LeaderEpoch: partition.leaderEpoch,
    HighWatermark: partition.highWatermark,
    MaxFollowerLag: leaderEnd - (laggiest?.logEndOffset ?? leaderEnd),
    MaxFollowerLagTimeMs: maxFollowerLagTimeMs,
    CurrentVoters: partition.currentVoters.map((voter) => ({
      id: voter.replicaId,
      directoryId: directoryIdText(voter),
      endpoints: endpoints.get(voter.replicaId) ?? [],
    })),
    CurrentObservers: partition.observers.map((observer) => ({
      id: observer.replicaId,
      directoryId: directoryIdText(observer),
    })),
  };
}

/** The status as aligned `Name: value` lines; lists print as JSON, as Kafka's tool does. */
export function formatStatus(status: Record<string, unknown>): string[] {
  const width = Math.max(...Object.keys(status).map((key) => key.length)) + 2;
  return Object.entries(status).map(([key, value]) => {
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    return `${`${key}:`.padEnd(width)}${text}`;
  });
}

/** One row of the replication table per replica: the leader, its followers, then observers. */
export function replicationRows(
  partition: DescribeQuorumResponsePartitionData,
): Record<string, unknown>[] {
  const leader = partition.currentVoters.find((voter) => voter.replicaId === partition.leaderId);
  const leaderEnd = leader?.logEndOffset ?? partition.highWatermark;
  const row = (replica: Replica, status: string): Record<string, unknown> => ({
    NodeId: replica.replicaId,
    DirectoryId: directoryIdText(replica),
    LogEndOffset: replica.logEndOffset,
    Lag: leaderEnd - replica.logEndOffset,
    LastFetchTimestamp: replica.lastFetchTimestamp,
    LastCaughtUpTimestamp: replica.lastCaughtUpTimestamp,
    Status: status,
  });
  const followers = partition.currentVoters.filter((voter) => voter !== leader);
  return [
    ...(leader === undefined ? [] : [row(leader, "Leader")]),
    ...followers.map((voter) => row(voter, "Follower")),
    ...partition.observers.map((observer) => row(observer, "Observer")),
  ];
}

/** The rows as a table with a header line, columns padded to their widest cell. */
export function formatTable(
  rows: readonly Record<string, unknown>[],
  headers: readonly string[],
): string[] {
  const cells = [headers, ...rows.map((row) => headers.map((header) => String(row[header])))];
  const widths = headers.map((_, column) =>
    Math.max(...cells.map((line) => (line[column] ?? "").length)),
  );
  return cells.map((line) =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

export const REPLICATION_HEADERS = [
  "NodeId",
  "DirectoryId",
  "LogEndOffset",
  "Lag",
  "LastFetchTimestamp",
  "LastCaughtUpTimestamp",
  "Status",
] as const;
