/**
 * How `sluice reassign` reads the state of a reassignment: each partition's replicas now
 * (Metadata), the reassignments under way (ListPartitionReassignments), and from them `verify`
 * and `list`.
 */
import { ErrorCode } from "../common/index.js";
import {
  listPartitionReassignments,
  type ListPartitionReassignmentsResponse,
} from "../protocol/index.js";
import { EXIT } from "./command-options.js";
import { kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { printRows, type AdminIo, type AdminOptions } from "./admin-command.js";
import type { PartitionReplicas } from "./reassign-plan.js";

/** How long the controller may take to answer a reassignment request. */
export const REASSIGNMENT_TIMEOUT_MS = 30_000;

type OngoingPartition = ListPartitionReassignmentsResponse["topics"][number]["partitions"][number];

/** Each partition of `topics` with its replicas now, from Metadata. */
export async function currentReplicas(
  session: ClusterSession,
  topics: readonly string[],
): Promise<PartitionReplicas[]> {
  const metadata = await session.metadata([...new Set(topics)]);
  const current: PartitionReplicas[] = [];
  for (const topic of metadata.topics) {
    const name = topic.name ?? "";
    if (topic.errorCode !== ErrorCode.NONE) {
      throw kafkaFailure(topic.errorCode, `Topic '${name}' does not exist.`);
    }
    for (const partition of topic.partitions) {
      current.push({
        topic: name,
        partition: partition.partitionIndex,
        replicas: partition.replicaNodes,
      });
    }
  }
  return current;
}

/** The reassignments under way, by `topic-partition`. */
export async function ongoingReassignments(
  session: ClusterSession,
): Promise<Map<string, OngoingPartition>> {
  const response = await session.send(
    listPartitionReassignments,
    { timeoutMs: REASSIGNMENT_TIMEOUT_MS, topics: null },
    { maxVersion: 0 },
  );
  if (response.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(response.errorCode, response.errorMessage);
  }
  const ongoing = new Map<string, OngoingPartition>();
  for (const topic of response.topics) {
    for (const partition of topic.partitions) {
      ongoing.set(`${topic.name}-${partition.partitionIndex}`, partition);
    }
  }
  return ongoing;
}

/** Each partition of `plan` with its replicas now, and whether they are the planned ones. */
export async function planOutcomes(
  session: ClusterSession,
  plan: readonly PartitionReplicas[],
): Promise<{ entry: PartitionReplicas; now: PartitionReplicas | undefined; isDone: boolean }[]> {
  const current = await currentReplicas(
    session,
    plan.map((entry) => entry.topic),
  );
  return plan.map((entry) => {
    const now = current.find(
      (other) => other.topic === entry.topic && other.partition === entry.partition,
    );
    const isDone = now !== undefined && now.replicas.join(",") === entry.replicas.join(",");
    return { entry, now, isDone };
  });
}

export async function verify(
  session: ClusterSession,
  plan: readonly PartitionReplicas[],
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const ongoing = await ongoingReassignments(session);
  const outcomes = await planOutcomes(session, plan);
  const rows = outcomes.map(({ entry, now, isDone }) => {
    const name = `${entry.topic}-${entry.partition}`;
    const status = ongoing.has(name) ? "in progress" : isDone ? "completed" : "not running";
    return {
      TOPIC: entry.topic,
      PARTITION: entry.partition,
      TARGET: entry.replicas.join(","),
      CURRENT: now?.replicas.join(",") ?? null,
      STATUS: status,
    };
  });
  printRows(io, options, ["TOPIC", "PARTITION", "TARGET", "CURRENT", "STATUS"], rows);
  return rows.every((row) => row.STATUS === "completed") ? EXIT.ok : EXIT.failed;
}

export async function listReassignments(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const ongoing = await ongoingReassignments(session);
  const rows = [...ongoing]
    .map(([name, partition]) => ({
      PARTITION: name,
      REPLICAS: partition.replicas.join(","),
      ADDING: partition.addingReplicas.join(","),
      REMOVING: partition.removingReplicas.join(","),
    }))
    .sort((a, b) => a.PARTITION.localeCompare(b.PARTITION));
  if (rows.length === 0 && !options.booleans.has("--json")) {
    io.write("No partition reassignments found.");
    return EXIT.ok;
  }
  printRows(io, options, ["PARTITION", "REPLICAS", "ADDING", "REMOVING"], rows);
  return EXIT.ok;
}
