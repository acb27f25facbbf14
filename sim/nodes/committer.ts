/**
 * A client that commits a group's offsets as a consumer does, through the group coordinator
 * (FindCoordinator, then OffsetCommit and OffsetFetch at the coordinator), with no members in
 * the group, as Kafka allows for generation -1. Each commit is a larger offset than the last;
 * after each acknowledged commit the client reads the offset back. The history gets every
 * acknowledged commit and every read with the time it was asked, for the checker's P13:
 * committed offsets never go back, through coordinator moves and restarts.
 */
import { ErrorCode } from "../../src/common/index.js";
import { findCoordinator, offsetCommit, offsetFetch } from "../../src/protocol/index.js";
import type { Worker, WorkerContext } from "./workers.js";

/** The offsets topic's partition count in the simulation (offsets.topic.num.partitions). */
export const OFFSETS_PARTITIONS = 3;

/** The coordinator of `group`, as a random node names it, or undefined. */
async function coordinatorOf(context: WorkerContext, group: string): Promise<number | undefined> {
  const nodeId = context.random.pick(context.nodeIds);
  const result = await context.client.call(nodeId, findCoordinator, { key: group, keyType: 0 }, 3);
  if (result.kind !== "response" || result.body.errorCode !== ErrorCode.NONE) return undefined;
  return result.body.nodeId;
}

async function commit(
  context: WorkerContext,
  coordinator: number,
  target: { readonly group: string; readonly partition: number; readonly offset: number },
): Promise<boolean> {
  const partitions = [
    { partitionIndex: target.partition, committedOffset: target.offset, committedMetadata: "" },
  ];
  const body = {
    ...{ groupId: target.group, generationIdOrMemberEpoch: -1, memberId: "" },
    topics: [{ name: context.topic, partitions }],
  };
  const result = await context.client.call(coordinator, offsetCommit, body, 7);
  if (result.kind !== "response") return false;
  const answer = result.body.topics[0]?.partitions[0];
  return answer?.errorCode === ErrorCode.NONE;
}

async function fetchOffset(
  context: WorkerContext,
  coordinator: number,
  target: { readonly group: string; readonly partition: number },
): Promise<number | undefined> {
  const body = {
    groupId: target.group,
    topics: [{ name: context.topic, partitionIndexes: [target.partition] }],
    requireStable: true,
  };
  const result = await context.client.call(coordinator, offsetFetch, body, 7);
  if (result.kind !== "response" || result.body.errorCode !== ErrorCode.NONE) return undefined;
  const answer = result.body.topics[0]?.partitions[0];
  if (answer === undefined || answer.errorCode !== ErrorCode.NONE) return undefined;
  return answer.committedOffset;
}

/** Commits ever larger offsets of one partition for `group`, reading each back. */
export function startCommitter(context: WorkerContext, group: string): Worker {
  const { client, history } = context;
  const partition = 0;
  let isStopped = false;
  let next = 1;
  const at = () => client.machine.clock.nowMs();
  const done = (async () => {
    while (!isStopped) {
      const coordinator = await coordinatorOf(context, group);
      if (coordinator === undefined || coordinator < 0) {
        await client.pause(100);
        continue;
      }
      const invokedAtMs = at();
      if (await commit(context, coordinator, { group, partition, offset: next })) {
        history.record({
          kind: "commit",
          client: client.name,
          group,
          offset: next,
          invokedAtMs,
          atMs: at(),
        });
        next += 1;
      }
      const readAtMs = at();
      const offset = await fetchOffset(context, coordinator, { group, partition });
      if (offset !== undefined) {
        history.record({
          kind: "offset",
          client: client.name,
          group,
          offset,
          invokedAtMs: readAtMs,
          atMs: at(),
        });
      }
      await client.pause(20);
    }
  })();
  return { stop: () => (isStopped = true), done };
}
