/**
 * An operator inside the simulation: every few seconds it asks a random broker for a preferred
 * leader election of every partition (ElectLeaders, forwarded to the controller), as
 * kafka-leader-election.sh does, so leadership also moves while nothing failed. Its answers
 * are not judged: the checker judges what the clients saw.
 */
import { electLeaders } from "../../src/protocol/index.js";
import type { Worker, WorkerContext } from "./workers.js";

/** ElectLeaders' election type for the preferred replica. */
const PREFERRED = 0;

/** The worker, and how many elections it has had answered. */
export function startPreferredElections(
  context: WorkerContext,
): Worker & { readonly count: () => number } {
  const { client } = context;
  let isStopped = false;
  let elections = 0;
  const partitions = Array.from({ length: context.partitionCount }, (_, index) => index);
  const done = (async () => {
    while (!isStopped) {
      await client.pause(context.random.between(1000, 4000));
      if (isStopped) break;
      const body = {
        electionType: PREFERRED,
        topicPartitions: [{ topic: context.topic, partitions }],
        timeoutMs: 2000,
      };
      const result = await client.call(context.random.pick(context.nodeIds), electLeaders, body, 2);
      if (result.kind === "response") elections += 1;
    }
  })();
  return { stop: () => (isStopped = true), done, count: () => elections };
}
