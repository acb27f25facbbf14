/**
 * Transactions on a fresh cluster of three combined nodes: the partitions of a transaction are
 * led by several nodes, so the coordinator writes its markers on its own partitions and sends
 * WriteTxnMarkers to the other leaders; a read_committed kafkajs consumer reads every committed
 * record and no aborted one. Then the node coordinating the transactional id is killed with
 * -9: its `__transaction_state` partition moves, the new leader loads it, and a new producer
 * with the same transactional id goes on from the state it finds (a fresh epoch) and commits.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel } from "kafkajs";
import { readCommitted } from "../clients/read-committed.js";
import { killAll } from "./cluster-process.js";
import {
  awaitPartitions,
  bootstrapServers,
  coordinatorOf,
  createReplicatedTopic,
  expectBrokers,
  startThreeNodes,
} from "./three-nodes.js";

after(killAll);

const TOPIC = "payments";
const TRANSACTIONAL_ID = "payment-writer";

/** Runs `rounds` pairs of a committed and an aborted transaction of 12 records each. */
async function runTransactions(
  kafka: Kafka,
  written: { produced: number; readonly committed: string[] },
  rounds: number,
): Promise<void> {
  const producer = kafka.producer({
    transactionalId: TRANSACTIONAL_ID,
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const commit of [true, false]) {
        const transaction = await producer.transaction();
        const messages = Array.from({ length: 12 }, (_, index) => ({
          key: `k${index}`,
          value: `${commit ? "committed" : "aborted"}-${written.produced++}`,
        }));
        await transaction.send({ topic: TOPIC, acks: -1, messages });
        if (commit) {
          await transaction.commit();
          written.committed.push(...messages.map((message) => message.value));
        } else {
          await transaction.abort();
        }
      }
    }
  } finally {
    await producer.disconnect();
  }
}

function expectCommittedOnly(seen: readonly string[], committed: readonly string[]): void {
  assert.deepEqual(
    seen.filter((value) => value.startsWith("aborted")),
    [],
    "no aborted record is read",
  );
  assert.deepEqual([...seen].sort(), [...committed].sort(), "each committed record once");
}

test(
  "transactions span partitions led by three nodes and survive their coordinator's node",
  { timeout: 300_000 },
  async () => {
    const members = await startThreeNodes("transactions", {});
    const [first] = members;
    assert.ok(first !== undefined);
    await expectBrokers(first, [1, 2, 3]);
    const kafka = new Kafka({
      brokers: bootstrapServers(members).split(","),
      logLevel: logLevel.NOTHING,
    });
    await createReplicatedTopic(first, { topic: TOPIC, partitions: 6, minInsyncReplicas: 1 });
    await awaitPartitions(
      members,
      TOPIC,
      (partitions) =>
        new Set([...partitions.values()].map((partition) => partition.leader)).size === 3,
      "leaders on every node",
    );
    const written = { produced: 0, committed: [] as string[] };
    await runTransactions(kafka, written, 2);
    const seen = await readCommitted(kafka, {
      topic: TOPIC,
      groupId: "readers-before",
      committedCount: written.committed.length,
    });
    expectCommittedOnly(seen, written.committed);

    const coordinatorId = await coordinatorOf(members, { key: TRANSACTIONAL_ID, keyType: 1 });
    const victim = members.find((member) => member.nodeId === coordinatorId);
    assert.ok(victim !== undefined);
    await victim.node.stop("SIGKILL");
    assert.notEqual(
      await coordinatorOf(members, { key: TRANSACTIONAL_ID, keyType: 1, avoiding: victim.nodeId }),
      victim.nodeId,
    );
    await awaitPartitions(
      members,
      TOPIC,
      (partitions) =>
        [...partitions.values()].every((p) => p.leader >= 0 && p.leader !== victim.nodeId),
      "the topic led by the survivors",
      60_000,
    );
    await runTransactions(kafka, written, 1);
    const after = await readCommitted(kafka, {
      topic: TOPIC,
      groupId: "readers-after",
      committedCount: written.committed.length,
    });
    expectCommittedOnly(after, written.committed);
  },
);
