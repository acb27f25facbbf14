/**
 * The transaction and KIP-848 group APIs checked per resource as Kafka's KafkaApis checks them,
 * with real clients on a node with the StandardAuthorizer (acl-test-support.ts): kafkajs's
 * transactional producer as bob needs WRITE on its transactional id and on each topic it adds
 * (AddPartitionsToTxn) and READ on the topics whose offsets it commits (TxnOffsetCommit);
 * DescribeTransactions, ListTransactions, DescribeProducers, DescribeTopicPartitions,
 * ConsumerGroupHeartbeat, ConsumerGroupDescribe and OffsetDelete, sent by the project's client
 * logged in as bob, show or change only what his ACLs allow.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import kafkajs from "kafkajs";
import { ErrorCode } from "../../src/common/index.js";
import {
  addPartitionsToTxn,
  consumerGroupDescribe,
  consumerGroupHeartbeat,
  describeProducers,
  describeTopicPartitions,
  describeTransactions,
  findCoordinator as findCoordinatorApi,
  listTransactions,
  offsetDelete,
  type ApiCodec,
  type MessageInput,
} from "../../src/protocol/index.js";
import {
  aclNodeOfFile,
  asUser,
  BOB_LOGIN,
  bobAcl,
  errorTypeOf,
  withAdmin,
} from "./acl-test-support.js";
import { pollUntil } from "../cluster/cluster-process.js";

const { ports, admin, bob } = aclNodeOfFile();
const { AclOperationTypes, AclResourceTypes } = kafkajs;

type Grant = readonly [type: number, name: string, operation: number, deny?: boolean];

async function grantBob(grants: readonly Grant[]): Promise<void> {
  const acl = grants.map(([resourceType, name, operation, deny]) => ({
    ...bobAcl(name, operation, { deny: deny === true }),
    resourceType,
  }));
  await withAdmin(admin(), (client) => client.createAcls({ acl }));
}

/** One request of the project's client as bob; its response body. */
async function asBob<Request extends object, Response extends object>(
  api: ApiCodec<Request, Response>,
  body: MessageInput<Request>,
  versions: { readonly minVersion?: number; readonly maxVersion?: number } = {},
): Promise<Response> {
  const result = await asUser(ports(), BOB_LOGIN, (connection) =>
    connection.send(api, body, versions),
  );
  assert.ok(result.kind === "response", JSON.stringify(result));
  return result.body;
}

/** FindCoordinator of `groupId` as bob, which creates __consumer_offsets if it is missing. */
async function findCoordinator(groupId: string): Promise<void> {
  const found = await asBob(findCoordinatorApi, { keyType: 0, coordinatorKeys: [groupId] });
  assert.ok(found.coordinators.length === 1, JSON.stringify(found));
}

const TOPIC = AclResourceTypes.TOPIC;
const GROUP = AclResourceTypes.GROUP;
const TRANSACTIONAL_ID = AclResourceTypes.TRANSACTIONAL_ID;

test("a transaction needs WRITE on its id and topics, READ on the offsets it commits", async () => {
  await withAdmin(admin(), (client) =>
    client.createTopics({
      waitForLeaders: true,
      topics: ["tx-in", "tx-out", "tx-hidden"].map((topic) => ({ topic, numPartitions: 1 })),
    }),
  );
  await grantBob([
    [TRANSACTIONAL_ID, "bob-tx", AclOperationTypes.WRITE],
    [TOPIC, "tx-out", AclOperationTypes.WRITE],
    [TOPIC, "tx-hidden", AclOperationTypes.WRITE],
    // Metadata needs DESCRIBE: without it kafkajs would not get as far as AddPartitionsToTxn.
    [TOPIC, "tx-in", AclOperationTypes.DESCRIBE],
    [TOPIC, "__consumer_offsets", AclOperationTypes.WRITE],
    [GROUP, "bob-g", AclOperationTypes.READ],
  ]);
  const producer = bob(10).producer({
    transactionalId: "bob-tx",
    maxInFlightRequests: 1,
    idempotent: true,
    retry: { retries: 10, initialRetryTime: 100 },
  });
  await producer.connect();
  try {
    const refused = await producer.transaction();
    const sent = refused.send({ topic: "tx-in", messages: [{ value: "no" }] });
    assert.equal(await sent.then(() => "NONE", errorTypeOf), "TOPIC_AUTHORIZATION_FAILED");
    await refused.abort();
    const transaction = await producer.transaction();
    await transaction.send({ topic: "tx-out", messages: [{ value: "a" }] });
    await transaction.send({ topic: "tx-hidden", messages: [{ value: "b" }] });
    await grantBob([[TOPIC, "tx-hidden", AclOperationTypes.DESCRIBE, true]]);
    const described = await asBob(describeTransactions, { transactionalIds: ["bob-tx", "other"] });
    const [own, other] = described.transactionStates;
    assert.equal(own?.errorCode, ErrorCode.NONE);
    assert.equal(own?.transactionState, "Ongoing");
    assert.deepEqual(
      own?.topics.map((topic) => topic.topic),
      ["tx-out"],
      "a topic he may not DESCRIBE is left out",
    );
    assert.equal(other?.errorCode, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
    const offsets = {
      consumerGroupId: "bob-g",
      topics: [{ topic: "tx-in", partitions: [{ partition: 0, offset: "1" }] }],
    };
    const committing = transaction.sendOffsets(offsets);
    assert.equal(
      await committing.then(() => "NONE", errorTypeOf),
      "TOPIC_AUTHORIZATION_FAILED",
      "TxnOffsetCommit needs READ on the topic",
    );
    await transaction.abort();
  } finally {
    await producer.disconnect();
  }
});

test("no internal topic joins a transaction, and bob lists only his", async () => {
  // A client never adds an internal topic's partition, whatever its ACLs; the request fails.
  const added = await asBob(
    addPartitionsToTxn,
    {
      v3AndBelowTransactionalId: "bob-tx",
      v3AndBelowProducerId: 1,
      v3AndBelowProducerEpoch: 0,
      v3AndBelowTopics: [
        { name: "__consumer_offsets", partitions: [0] },
        { name: "tx-out", partitions: [0] },
      ],
    },
    { maxVersion: 3 },
  );
  assert.deepEqual(
    added.resultsByTopicV3AndBelow.map((topic) => [
      topic.name,
      topic.resultsByPartition[0]?.partitionErrorCode,
    ]),
    [
      ["__consumer_offsets", ErrorCode.TOPIC_AUTHORIZATION_FAILED],
      ["tx-out", ErrorCode.OPERATION_NOT_ATTEMPTED],
    ],
  );
  // v4+ come from brokers only: CLUSTER_ACTION, which bob does not have.
  const verify = { transactionalId: "bob-tx", producerId: 1, producerEpoch: 0, verifyOnly: true };
  const asked = await asBob(
    addPartitionsToTxn,
    { transactions: [{ ...verify, topics: [{ name: "tx-out", partitions: [0] }] }] },
    { minVersion: 4 },
  );
  assert.equal(asked.errorCode, ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
  assert.deepEqual(asked.resultsByTransaction, []);
  const listed = await asBob(listTransactions, {});
  assert.deepEqual(
    listed.transactionStates.map((state) => state.transactionalId),
    ["bob-tx"],
    "the node's own and others' transactional ids are not listed",
  );
});

test("DescribeProducers needs READ, DescribeTopicPartitions DESCRIBE on a topic", async () => {
  await withAdmin(admin(), (client) =>
    client.createTopics({
      waitForLeaders: true,
      topics: ["dp-read", "dp-secret"].map((topic) => ({ topic, numPartitions: 1 })),
    }),
  );
  await grantBob([[TOPIC, "dp-read", AclOperationTypes.READ]]);
  const topics = ["dp-read", "dp-secret", "dp-none"];
  const producers = await asBob(describeProducers, {
    topics: topics.map((name) => ({ name, partitionIndexes: [0] })),
  });
  assert.deepEqual(
    producers.topics.map((topic) => [topic.name, topic.partitions[0]?.errorCode]),
    [
      ["dp-read", ErrorCode.NONE],
      ["dp-secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED],
      ["dp-none", ErrorCode.TOPIC_AUTHORIZATION_FAILED],
    ],
  );
  const described = await asBob(describeTopicPartitions, {
    topics: topics.map((name) => ({ name })),
    responsePartitionLimit: 100,
    cursor: null,
  });
  const read = 1 << 3;
  assert.deepEqual(
    described.topics.map((topic) => [topic.name, topic.errorCode, topic.partitions.length]),
    [
      ["dp-read", ErrorCode.NONE, 1],
      ["dp-none", ErrorCode.TOPIC_AUTHORIZATION_FAILED, 0],
      ["dp-secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED, 0],
    ],
  );
  assert.equal((described.topics[0]?.topicAuthorizedOperations ?? 0) & read, read);
  const everything = await asBob(describeTopicPartitions, {
    topics: [],
    responsePartitionLimit: 100,
    cursor: null,
  });
  const names = everything.topics.map((topic) => topic.name);
  assert.ok(names.includes("dp-read"), "a topic he may describe is listed");
  assert.ok(!names.includes("dp-secret"), "one he may not is left out, not refused");
  assert.ok(everything.topics.every((topic) => topic.errorCode === ErrorCode.NONE));
});

test("the KIP-848 group APIs need READ, DESCRIBE or DELETE on the group", async () => {
  const heartbeat = (groupId: string) =>
    asBob(consumerGroupHeartbeat, {
      groupId,
      memberId: "",
      memberEpoch: 0,
      rebalanceTimeoutMs: 30_000,
      subscribedTopicNames: ["tx-out"],
      topicPartitions: [],
    });
  assert.equal((await heartbeat("not-bobs")).errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
  await grantBob([
    [GROUP, "bob-848", AclOperationTypes.READ],
    [GROUP, "bob-848", AclOperationTypes.DELETE],
  ]);
  // The first heartbeats of the node's first group wait for __consumer_offsets to be created.
  await findCoordinator("bob-848");
  const joined = await pollUntil(
    async () => ((await heartbeat("bob-848")).errorCode === ErrorCode.NONE ? true : undefined),
    { deadlineMs: 30_000, intervalMs: 100, what: "bob's member joins bob-848" },
  );
  assert.ok(joined.value);
  const described = await asBob(consumerGroupDescribe, {
    groupIds: ["bob-848", "not-bobs"],
    includeAuthorizedOperations: true,
  });
  const [own, other] = described.groups;
  assert.equal(own?.errorCode, ErrorCode.NONE);
  assert.equal(own?.members.length, 1);
  const operations = own?.authorizedOperations ?? 0;
  // READ 3, DELETE 6, ALTER 7, DESCRIBE 8 (Kafka's AclOperation codes).
  const isGranted = (code: number) => (operations & (1 << code)) !== 0;
  assert.deepEqual([3, 6, 8, 7].map(isGranted), [true, true, true, false]);
  assert.equal(other?.errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
  const deleted = await asBob(offsetDelete, {
    groupId: "bob-848",
    topics: [{ name: "dp-secret", partitions: [{ partitionIndex: 0 }] }],
  });
  assert.equal(deleted.errorCode, ErrorCode.NONE);
  assert.equal(deleted.topics[0]?.partitions[0]?.errorCode, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
  const refused = await asBob(offsetDelete, { groupId: "not-bobs", topics: [] });
  assert.equal(refused.errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
});
