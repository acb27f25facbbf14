/**
 * KIP-890 part 1 on three combined nodes: a transactional producer that writes to a partition it
 * never added to its transaction is refused with INVALID_TXN_STATE by each partition's leader,
 * whether that leader coordinates the transactional id itself or asks the coordinator on another
 * node with AddPartitionsToTxn v4 (verifyOnly); nothing is written, so no transaction hangs and
 * the last stable offset stays at the high watermark. Once AddPartitionsToTxn adds the
 * partitions, the same batches are taken and the commit makes them readable. Transactional
 * records without a transactional id are refused whole (TRANSACTIONAL_ID_AUTHORIZATION_FAILED).
 * A TxnOffsetCommit is verified the same way by a group coordinator on another node: refused
 * INVALID_TXN_STATE before AddOffsetsToTxn, taken after it, and visible once committed.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import {
  addOffsetsToTxn,
  addPartitionsToTxn,
  endTxn,
  offsetFetch,
  txnOffsetCommit,
  initProducerId,
  listOffsets,
  produce,
  type ProduceResponse,
} from "../../src/protocol/index.js";
import { clientBatch } from "../replication/fixtures.js";
import { killAll, pollUntil, request } from "./cluster-process.js";
import {
  awaitPartitions,
  coordinatorOf,
  createAssignedTopic,
  expectBrokers,
  startThreeNodes,
  type Member,
} from "./three-nodes.js";

after(killAll);

const TOPIC = "verified";
const TRANSACTIONAL_ID = "verified-writer";

interface Producer {
  readonly producerId: number;
  readonly producerEpoch: number;
}

async function initTransactionalProducer(coordinator: Member): Promise<Producer> {
  const { value } = await pollUntil(
    async () => {
      const answer = await request(
        coordinator.client,
        initProducerId,
        {
          transactionalId: TRANSACTIONAL_ID,
          transactionTimeoutMs: 60_000,
          producerId: -1,
          producerEpoch: -1,
        },
        { maxVersion: 4 },
      );
      return answer.errorCode === ErrorCode.NONE ? answer : undefined;
    },
    { deadlineMs: 60_000, intervalMs: 200, what: "a transactional producer id" },
  );
  return { producerId: value.producerId, producerEpoch: value.producerEpoch };
}

/** One transactional batch to `partition` through its leader; the partition's error code. */
async function produceTransactional(
  leader: Member,
  partition: number,
  producer: Producer,
  transactionalId: string | null = TRANSACTIONAL_ID,
): Promise<number> {
  const records = clientBatch([{ timestamp: Date.now(), value: `in-${partition}` }], {
    ...producer,
    isTransactional: true,
    baseSequence: 0,
  });
  const response: ProduceResponse = await request(
    leader.client,
    produce,
    {
      transactionalId,
      acks: -1,
      timeoutMs: 10_000,
      topicData: [{ name: TOPIC, partitionData: [{ index: partition, records }] }],
    },
    { maxVersion: 9 },
  );
  return response.responses[0]?.partitionResponses[0]?.errorCode ?? -1;
}

/** AddPartitionsToTxn v3 of the topic's three partitions; each partition's error code. */
async function addPartitions(coordinator: Member, producer: Producer): Promise<number[]> {
  const added = await request(
    coordinator.client,
    addPartitionsToTxn,
    {
      v3AndBelowTransactionalId: TRANSACTIONAL_ID,
      v3AndBelowProducerId: producer.producerId,
      v3AndBelowProducerEpoch: producer.producerEpoch,
      v3AndBelowTopics: [{ name: TOPIC, partitions: [0, 1, 2] }],
    },
    { maxVersion: 3 },
  );
  return added.resultsByTopicV3AndBelow.flatMap((topic) =>
    topic.resultsByPartition.map((result) => result.partitionErrorCode),
  );
}

/** The latest offset of `partition` for read_uncommitted (0) or read_committed (1). */
async function latestOffset(leader: Member, partition: number, isolationLevel: 0 | 1) {
  const response = await request(
    leader.client,
    listOffsets,
    {
      replicaId: -1,
      isolationLevel,
      topics: [{ name: TOPIC, partitions: [{ partitionIndex: partition, timestamp: -1 }] }],
    },
    { maxVersion: 7 },
  );
  const answer = response.topics[0]?.partitions[0];
  assert.equal(answer?.errorCode, ErrorCode.NONE);
  return answer?.offset;
}

/** TxnOffsetCommit v3 of offset `offset` of TOPIC's partition 0 for `groupId`; its error codes. */
async function commitOffset(
  groupCoordinator: Member,
  groupId: string,
  producer: Producer,
  offset: number,
): Promise<number[]> {
  const response = await request(
    groupCoordinator.client,
    txnOffsetCommit,
    {
      ...{ transactionalId: TRANSACTIONAL_ID, groupId, ...producer },
      ...{ generationId: -1, memberId: "", groupInstanceId: null },
      topics: [
        {
          name: TOPIC,
          partitions: [
            { partitionIndex: 0, committedOffset: offset, committedLeaderEpoch: -1 },
          ].map((partition) => ({ ...partition, committedMetadata: "" })),
        },
      ],
    },
    { maxVersion: 3 },
  );
  return response.topics.flatMap((topic) => topic.partitions.map((p) => p.errorCode));
}

/** The committed offset of TOPIC's partition 0 for `groupId`. */
async function committedOffset(groupCoordinator: Member, groupId: string): Promise<number> {
  const response = await request(
    groupCoordinator.client,
    offsetFetch,
    { groupId, topics: [{ name: TOPIC, partitionIndexes: [0] }], requireStable: false },
    { maxVersion: 7 },
  );
  return response.topics[0]?.partitions[0]?.committedOffset ?? -2;
}

/**
 * A group whose coordinator is not the transaction coordinator `avoiding`, so the group
 * coordinator asks another node; the group id and its coordinator.
 */
async function groupAwayFrom(members: readonly Member[], avoiding: number) {
  for (let index = 0; ; index++) {
    const groupId = `verified-group-${index}`;
    const nodeId = await coordinatorOf(members, { key: groupId, keyType: 0 });
    const member = members.find((each) => each.nodeId === nodeId);
    if (nodeId !== avoiding && member !== undefined) return { groupId, member };
  }
}

/** The TxnOffsetCommit half of the test, inside the producer's open transaction. */
async function checkOffsetCommitVerification(
  members: readonly Member[],
  coordinator: Member,
  producer: Producer,
): Promise<string> {
  const { groupId, member } = await groupAwayFrom(members, coordinator.nodeId);
  assert.deepEqual(
    await commitOffset(member, groupId, producer, 5),
    [ErrorCode.INVALID_TXN_STATE],
    `group coordinator ${member.nodeId}, transaction coordinator ${coordinator.nodeId}`,
  );
  const added = await request(
    coordinator.client,
    addOffsetsToTxn,
    { transactionalId: TRANSACTIONAL_ID, ...producer, groupId },
    { maxVersion: 3 },
  );
  assert.equal(added.errorCode, ErrorCode.NONE);
  assert.deepEqual(await commitOffset(member, groupId, producer, 5), [ErrorCode.NONE]);
  return groupId;
}

test(
  "a partition not added to the transaction refuses its transactional batch on every leader",
  { timeout: 240_000 },
  async () => {
    const members = await startThreeNodes("transaction-verification", {});
    const [first] = members;
    assert.ok(first !== undefined);
    await expectBrokers(first, [1, 2, 3]);
    await createAssignedTopic(first, TOPIC, [[1], [2], [3]]);
    await awaitPartitions(
      members,
      TOPIC,
      (partitions) => [...partitions.values()].every((p) => p.leader >= 0),
      "every partition led",
    );
    const coordinatorId = await coordinatorOf(members, { key: TRANSACTIONAL_ID, keyType: 1 });
    const coordinator = members.find((member) => member.nodeId === coordinatorId);
    assert.ok(coordinator !== undefined);
    const producer = await initTransactionalProducer(coordinator);
    const leaderOf = (partition: number) => {
      const leader = members.find((member) => member.nodeId === partition + 1);
      assert.ok(leader !== undefined);
      return leader;
    };

    // Transactional records without a transactional id are refused whole, as Kafka refuses them.
    assert.equal(
      await produceTransactional(leaderOf(0), 0, producer, null),
      ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
    );
    for (const partition of [0, 1, 2]) {
      assert.equal(
        await produceTransactional(leaderOf(partition), partition, producer),
        ErrorCode.INVALID_TXN_STATE,
        `partition ${partition}, led by node ${partition + 1}, coordinator ${coordinatorId}`,
      );
      assert.equal(await latestOffset(leaderOf(partition), partition, 0), 0, "nothing written");
      assert.equal(await latestOffset(leaderOf(partition), partition, 1), 0, "nothing hangs");
    }

    assert.deepEqual(
      await addPartitions(coordinator, producer),
      [0, 0, 0].map(() => ErrorCode.NONE),
    );
    for (const partition of [0, 1, 2]) {
      const errorCode = await produceTransactional(leaderOf(partition), partition, producer);
      assert.equal(errorCode, ErrorCode.NONE, `partition ${partition} once added`);
    }
    const groupId = await checkOffsetCommitVerification(members, coordinator, producer);
    const ended = await request(
      coordinator.client,
      endTxn,
      { transactionalId: TRANSACTIONAL_ID, ...producer, committed: true },
      { maxVersion: 3 },
    );
    assert.equal(ended.errorCode, ErrorCode.NONE);
    for (const partition of [0, 1, 2]) {
      await pollUntil(
        async () =>
          (await latestOffset(leaderOf(partition), partition, 1)) === 2 ? true : undefined,
        { deadlineMs: 30_000, intervalMs: 200, what: `partition ${partition}'s commit readable` },
      );
    }
    const { member } = await groupAwayFrom(members, coordinator.nodeId);
    await pollUntil(
      async () => ((await committedOffset(member, groupId)) === 5 ? true : undefined),
      { deadlineMs: 30_000, intervalMs: 200, what: "the transaction's offset committed" },
    );
  },
);
