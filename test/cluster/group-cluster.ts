/**
 * The cluster of the group coordinator move tests: three combined nodes, a topic of two
 * partitions, and `__consumer_offsets` created (by asking for the group's coordinator) and
 * replicated to every node, so that killing the coordinator leaves a replica to take over.
 */
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import {
  awaitPartitions,
  coordinatorOf,
  createReplicatedTopic,
  expectBrokers,
  startThreeNodes,
  type Member,
} from "./three-nodes.js";

/** Answers a client retries elsewhere or later while the coordinator moves. */
export const COORDINATOR_RETRIABLE: ReadonlySet<number> = new Set([
  ErrorCode.NOT_COORDINATOR,
  ErrorCode.COORDINATOR_NOT_AVAILABLE,
  ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
]);

export async function startGroupCluster(
  name: string,
  at: { readonly topic: string; readonly groupId: string },
  settings: Readonly<Record<string, string>> = {},
): Promise<Member[]> {
  const members = await startThreeNodes(name, settings);
  const [first] = members;
  assert.ok(first !== undefined);
  await expectBrokers(first, [1, 2, 3]);
  await createReplicatedTopic(first, { topic: at.topic, partitions: 2, minInsyncReplicas: 1 });
  await coordinatorOf(members, { key: at.groupId, keyType: 0 });
  await awaitPartitions(
    members,
    "__consumer_offsets",
    (partitions) =>
      partitions.size > 0 && [...partitions.values()].every((p) => p.isr.length === 3),
    "__consumer_offsets fully replicated",
    60_000,
  );
  return members;
}
