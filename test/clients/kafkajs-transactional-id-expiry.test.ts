/**
 * `transactional.id.expiration.ms` against a real node with a kafkajs transactional producer:
 * once the id has been idle for the expiration, the coordinator writes its tombstone and
 * ListTransactions no longer lists it, also after a restart (the tombstone is replayed), and a
 * new producer with the same id starts afresh with a new producer id.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel } from "kafkajs";
import { describeTransactions, listTransactions } from "../../src/protocol/index.js";
import { pollUntil, request } from "../cluster/cluster-process.js";
import { SluiceProcess } from "./sluice-process.js";

const TOPIC = "expiring-transactions";
const TRANSACTIONAL_ID = "expiring-producer";

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create([
    "transactional.id.expiration.ms=1000",
    "transaction.remove.expired.transaction.cleanup.interval.ms=100",
    "transaction.state.log.num.partitions=2",
  ]);
  await node.start();
});

after(async () => {
  await node.destroy();
});

function kafka(): Kafka {
  return new Kafka({ brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
}

/** One committed transaction of a new producer with the id; resolves to its producer id. */
async function commitOne(value: string): Promise<number> {
  const producer = kafka().producer({
    transactionalId: TRANSACTIONAL_ID,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  try {
    const transaction = await producer.transaction();
    await transaction.send({ topic: TOPIC, messages: [{ value }] });
    await transaction.commit();
  } finally {
    await producer.disconnect();
  }
  // EndTxn is answered once PrepareCommit is durable; CompleteCommit follows the markers.
  const { value: state } = await pollUntil(
    async () => {
      const described = await request(
        { host: "127.0.0.1", port: node.ports.client },
        describeTransactions,
        { transactionalIds: [TRANSACTIONAL_ID] },
        { maxVersion: 0 },
      );
      const found = described.transactionStates[0];
      return found?.transactionState === "CompleteCommit" ? found : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 50, what: "the transaction's CompleteCommit" },
  );
  return Number(state.producerId);
}

/** The listed transactional ids, once the coordinator answers (it may still be loading). */
async function listedIds(): Promise<string[]> {
  const endpoint = { host: "127.0.0.1", port: node.ports.client };
  const body = { stateFilters: [], producerIdFilters: [] };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = await request(endpoint, listTransactions, body, { maxVersion: 0 });
    if (list.errorCode === 0) return list.transactionStates.map((each) => each.transactionalId);
    assert.ok(Date.now() < deadline, `ListTransactions answers, not error ${list.errorCode}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function untilUnlisted(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await listedIds()).includes(TRANSACTIONAL_ID)) {
    assert.ok(Date.now() < deadline, "the idle transactional id is removed");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("an idle transactional id expires, stays gone after a restart, starts afresh", async () => {
  const admin = kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC }], waitForLeaders: true });
  await admin.disconnect();
  const first = await commitOne("before");
  assert.deepEqual(await listedIds(), [TRANSACTIONAL_ID], "listed while it is fresh");
  await untilUnlisted();
  await node.stop();
  await node.start();
  assert.deepEqual(await listedIds(), [], "the tombstone is replayed when the log loads");
  const second = await commitOne("after");
  assert.notEqual(second, first, "the id starts again with a new producer id");
});
