/**
 * The simulated clients' loops. A producer writes unique values one at a time to a random
 * partition with its acks, asking a random node for the leader first; every call goes into the
 * history as invoke, then ok, fail or info. A reader follows each partition from its leader, as
 * a consumer does, and records what it read and the high watermark it was told. Both run until
 * stopped; neither retries a value, so a value is written at most once.
 */
import { ErrorCode } from "../../src/common/index.js";
import type { SeededRandom } from "../random.js";
import { partitionKey, type Acks, type History } from "./history.js";
import type { SimClient } from "./sim-client.js";
import { clusterOf, fetchFrom, partitionsOf, produceOne } from "./wire.js";

/**
 * Refusals after which the record is surely not in the log: the leader checks the ISR against
 * min.insync.replicas before it appends, and an unknown partition appends nothing. Every other
 * refusal (a timeout, NOT_LEADER_OR_FOLLOWER from a leader that lost its place while waiting for
 * the ISR) leaves the outcome open.
 */
const DEFINITE_REFUSALS: ReadonlySet<number> = new Set([
  ErrorCode.NOT_ENOUGH_REPLICAS,
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
]);

/** What a worker loop needs: its client, the nodes, the topic, its random stream. */
export interface WorkerContext {
  readonly client: SimClient;
  readonly history: History;
  readonly nodeIds: readonly number[];
  readonly topic: string;
  readonly partitionCount: number;
  readonly random: SeededRandom;
}

/** A loop that runs until `stop`; `done` settles when it has. */
export interface Worker {
  stop(): void;
  readonly done: Promise<void>;
}

function runLoop(step: () => Promise<void>): Worker {
  let isStopped = false;
  const done = (async () => {
    while (!isStopped) await step();
  })();
  return { stop: () => (isStopped = true), done };
}

/** Asks a random node for `partition`'s leader, and records what the node said. */
export async function leaderOf(
  context: WorkerContext,
  partition: number,
): Promise<number | undefined> {
  const { client, topic } = context;
  const nodeId = context.random.pick(context.nodeIds);
  const view = await clusterOf(client, nodeId, topic);
  if (view === undefined) return undefined;
  context.history.record({
    kind: "metadata",
    client: client.name,
    nodeId,
    brokers: view.brokers,
    partitions: [...view.partitions].map(([index, state]) => ({
      partition: partitionKey(topic, index),
      leader: state.leader,
      leaderEpoch: state.leaderEpoch,
      isr: state.isr,
    })),
    atMs: client.machine.clock.nowMs(),
  });
  const leader = view.partitions.get(partition)?.leader;
  return leader === undefined || leader < 0 ? undefined : leader;
}

/** A producer with `acks`, writing `${name}-${n}` values. */
export function startProducer(context: WorkerContext, acks: Acks): Worker {
  const { client, history } = context;
  let sequence = 0;
  return runLoop(async () => {
    const partition = context.random.nextInt(context.partitionCount);
    const leader = await leaderOf(context, partition);
    if (leader === undefined) return client.pause(50);
    const value = `${client.name}-${sequence++}`;
    const key = partitionKey(context.topic, partition);
    const at = () => client.machine.clock.nowMs();
    history.record({
      kind: "invoke",
      client: client.name,
      partition: key,
      value,
      acks,
      atMs: at(),
    });
    const target = { topic: context.topic, partition, acks };
    const outcome = await produceOne(client, leader, target, value);
    if (outcome.kind === "ok") {
      history.acknowledged(client.name, value, outcome.offset, at());
      return;
    }
    const isDefinite = outcome.kind === "refused" && DEFINITE_REFUSALS.has(outcome.errorCode);
    const reason = outcome.kind === "refused" ? `error ${outcome.errorCode}` : outcome.reason;
    history.record({
      kind: isDefinite ? "fail" : "info",
      client: client.name,
      value,
      reason,
      atMs: at(),
    });
    await client.pause(20);
  });
}

/** A reader following every partition from its current leader. */
export function startReader(context: WorkerContext): Worker {
  const { client, history } = context;
  const positions = new Array<number>(context.partitionCount).fill(0);
  return runLoop(async () => {
    const partition = context.random.nextInt(context.partitionCount);
    const leader = await leaderOf(context, partition);
    if (leader === undefined) return client.pause(50);
    const target = { topic: context.topic, partition };
    const fetched = await fetchFrom(client, leader, target, positions[partition] ?? 0);
    if (fetched === undefined) return client.pause(50);
    positions[partition] = fetched.next;
    history.record({
      kind: "read",
      client: client.name,
      partition: partitionKey(context.topic, partition),
      records: fetched.records,
      highWatermark: fetched.highWatermark,
      atMs: client.machine.clock.nowMs(),
    });
    if (fetched.records.length === 0) await client.pause(20);
  });
}

/**
 * Reads every partition of `topic` from offset 0 to its high watermark from its leader, as
 * node `nodeId` names it; undefined when a leader does not answer.
 */
export async function readAll(
  context: Pick<WorkerContext, "client" | "topic" | "partitionCount">,
  nodeId: number,
): Promise<Map<number, { offset: number; value: string }[]> | undefined> {
  const partitions = await partitionsOf(context.client, nodeId, context.topic);
  if (partitions === undefined) return undefined;
  const logs = new Map<number, { offset: number; value: string }[]>();
  for (let partition = 0; partition < context.partitionCount; partition++) {
    const leader = partitions.get(partition)?.leader;
    if (leader === undefined || leader < 0) return undefined;
    const records: { offset: number; value: string }[] = [];
    const target = { topic: context.topic, partition };
    for (let offset = 0; ;) {
      const fetched = await fetchFrom(context.client, leader, target, offset);
      if (fetched === undefined) return undefined;
      records.push(...fetched.records);
      if (fetched.next >= fetched.highWatermark) break;
      // A fetch below the high watermark that moves no further is a fault of the leader.
      if (fetched.next === offset) return undefined;
      offset = fetched.next;
    }
    logs.set(partition, records);
  }
  return logs;
}
