/**
 * The transaction admin APIs and `sluice transactions` against one real node, with a kafkajs
 * transactional producer: DescribeTransactions, ListTransactions (state, producer id and v1
 * duration filters) and DescribeProducers sent on the wire, and the command's list, describe,
 * describe-producers, find-hanging and abort, which writes an ABORT marker for an open one.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { ErrorCode } from "../../src/common/index.js";
import {
  describeProducers,
  describeTransactions,
  listTransactions,
} from "../../src/protocol/index.js";
import { SluiceProcess, withDeadline } from "../clients/sluice-process.js";
import { request } from "../cluster/cluster-process.js";
import { json, runSluice, type Outcome } from "./run-sluice.js";

const TOPIC = "txn-admin";
const TRANSACTIONAL_ID = "txn-admin-producer";

let node: SluiceProcess;
let admin: Admin;
let producer: Producer;

before(async () => {
  node = await SluiceProcess.create([]);
  await node.start();
  const kafka = new Kafka({ brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
  producer = kafka.producer({
    transactionalId: TRANSACTIONAL_ID,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
});

after(async () => {
  await producer?.disconnect().catch(() => undefined);
  await admin?.disconnect();
  await node.destroy();
});

function endpoint() {
  return { host: "127.0.0.1", port: node.ports.client };
}

function transactions(subcommand: string, ...args: string[]): Promise<Outcome> {
  return runSluice(["transactions", subcommand, "--bootstrap-server", node.bootstrap, ...args]);
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const poll = async (): Promise<void> => {
    while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  await withDeadline(poll(), 30_000, () => what);
}

/** ListTransactions' filters over the one open transaction of `producerId`. */
async function checkListed(producerId: number): Promise<void> {
  const list = (body: object, maxVersion: number) =>
    request(endpoint(), listTransactions, body, { maxVersion });
  const all = await list({ stateFilters: [], producerIdFilters: [] }, 0);
  assert.deepEqual(
    all.transactionStates.map((each) => [each.transactionalId, each.transactionState]),
    [[TRANSACTIONAL_ID, "Ongoing"]],
  );
  const bogus = await list({ stateFilters: ["Bogus"], producerIdFilters: [] }, 0);
  assert.deepEqual(bogus.unknownStateFilters, ["Bogus"]);
  assert.deepEqual(bogus.transactionStates, []);
  const otherId = await list({ stateFilters: [], producerIdFilters: [producerId + 1] }, 0);
  assert.deepEqual(otherId.transactionStates, []);
  const longer = await list(
    { stateFilters: ["Ongoing"], producerIdFilters: [producerId], durationFilter: 3_600_000 },
    1,
  );
  assert.deepEqual(longer.transactionStates, [], "it has not run for an hour");
  const running = await list({ stateFilters: [], producerIdFilters: [], durationFilter: 0 }, 1);
  assert.equal(running.transactionStates.length, 1);
}

/** DescribeProducers on the open transaction's partition, another, and two bad topics. */
async function checkProducers(producerId: number): Promise<void> {
  const producers = await request(
    endpoint(),
    describeProducers,
    {
      topics: [
        { name: TOPIC, partitionIndexes: [0, 1] },
        { name: "no-such-topic", partitionIndexes: [0] },
        { name: "bad/name", partitionIndexes: [0] },
      ],
    },
    { maxVersion: 0 },
  );
  const [ours, missing, invalid] = producers.topics;
  const onZero = ours?.partitions[0]?.activeProducers ?? [];
  assert.equal(onZero.length, 1);
  assert.equal(onZero[0]?.producerId, producerId);
  assert.equal(onZero[0]?.currentTxnStartOffset, 0);
  assert.equal(onZero[0]?.lastSequence, 0);
  assert.deepEqual(ours?.partitions[1]?.activeProducers, []);
  assert.equal(missing?.partitions[0]?.errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  assert.equal(invalid?.partitions[0]?.errorCode, ErrorCode.INVALID_TOPIC_EXCEPTION);
}

test("an open transaction is described, listed and shown by its producer", async () => {
  const transaction = await producer.transaction();
  await transaction.send({ topic: TOPIC, messages: [{ partition: 0, value: "open" }] });
  const described = await request(
    endpoint(),
    describeTransactions,
    { transactionalIds: [TRANSACTIONAL_ID, "no-such-id", ""] },
    { maxVersion: 0 },
  );
  const [open, unknown, empty] = described.transactionStates;
  assert.equal(open?.errorCode, ErrorCode.NONE);
  assert.equal(open?.transactionState, "Ongoing");
  assert.deepEqual(
    open?.topics.map(({ topic, partitions }) => ({ topic, partitions })),
    [{ topic: TOPIC, partitions: [0] }],
  );
  assert.ok((open?.transactionStartTimeMs ?? -1) > 0);
  assert.equal(unknown?.errorCode, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
  assert.equal(empty?.errorCode, ErrorCode.INVALID_REQUEST);
  const producerId = open?.producerId ?? -1;

  await checkListed(producerId);
  await checkProducers(producerId);
  await transaction.commit();
  await until(async () => {
    const after = await request(
      endpoint(),
      describeTransactions,
      { transactionalIds: [TRANSACTIONAL_ID] },
      { maxVersion: 0 },
    );
    return after.transactionStates[0]?.transactionState === "CompleteCommit";
  }, "the transaction never became CompleteCommit");
});

interface ListedRow {
  readonly TransactionalId: string;
  readonly Coordinator: number;
  readonly ProducerId: number;
  readonly TransactionState: string;
}

test("sluice transactions lists, describes, finds nothing hanging and aborts", async () => {
  const transaction = await producer.transaction();
  await transaction.send({ topic: TOPIC, messages: [{ partition: 1, value: "to-abort" }] });

  const listed = await transactions("list", "--json");
  assert.equal(listed.code, 0, listed.stderr);
  const rows = json<ListedRow[]>(listed);
  assert.deepEqual(
    rows.map((row) => [row.TransactionalId, row.TransactionState]),
    [[TRANSACTIONAL_ID, "Ongoing"]],
  );
  const filtered = await transactions("list", "--state", "CompleteAbort", "--json");
  assert.deepEqual(json<ListedRow[]>(filtered), []);

  const described = await transactions("describe", "--transactional-id", TRANSACTIONAL_ID);
  assert.equal(described.code, 0, described.stderr);
  assert.match(described.stdout, /TransactionState/);
  assert.match(described.stdout, new RegExp(`Ongoing.*${TOPIC}-1`));
  const unknown = await transactions("describe", "--transactional-id", "nobody");
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /TRANSACTIONAL_ID_NOT_FOUND/);

  const shown = await transactions(
    "describe-producers",
    ...["--topic", TOPIC, "--partition", "1", "--json"],
  );
  assert.equal(shown.code, 0, shown.stderr);
  const [state] = json<{ CurrentTransactionStartOffset: number | string }[]>(shown);
  assert.equal(typeof state?.CurrentTransactionStartOffset, "number");
  const startOffset = String(state?.CurrentTransactionStartOffset);

  // The coordinator holds the partition in the ongoing transaction: it is not hanging.
  const hanging = await transactions(
    "find-hanging",
    ...["--topic", TOPIC, "--max-transaction-timeout", "0", "--json"],
  );
  assert.equal(hanging.code, 0, hanging.stderr);
  assert.deepEqual(json<unknown[]>(hanging), []);

  const aborted = await transactions(
    "abort",
    ...["--topic", TOPIC, "--partition", "1", "--start-offset", startOffset],
  );
  assert.equal(aborted.code, 0, aborted.stderr);
  const afterAbort = await transactions(
    "describe-producers",
    ...["--topic", TOPIC, "--partition", "1", "--json"],
  );
  const [closed] = json<{ CurrentTransactionStartOffset: number | string }[]>(afterAbort);
  assert.equal(closed?.CurrentTransactionStartOffset, "None", "the marker closed it");
  const again = await transactions(
    "abort",
    ...["--topic", TOPIC, "--partition", "1", "--start-offset", startOffset],
  );
  assert.equal(again.code, 1);
  assert.match(again.stderr, /Could not find any open transactions/);
  await transaction.abort();
});
