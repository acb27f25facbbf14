/**
 * The partition leader's questions to transaction coordinators (KIP-890): answered at once when
 * this broker coordinates the transactional id; else one AddPartitionsToTxn v4 in flight per
 * coordinator node, the questions that arrive meanwhile going together in the next one, a
 * retried or fenced question answered as Kafka's AddPartitionsToTxnManager answers it, and the
 * coordinator's errors translated for producers. Each request goes through the codec at v4, as
 * it would on the wire; the coordinator's real handler answers it in the three-process test
 * (test/cluster/transaction-verification.test.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import {
  AddPartitionsToTxnManager,
  MetadataCache,
  type AddPartitionsToTxnManagerOptions,
} from "../../../src/broker/index.js";
import { EMPTY_IMAGE, EMPTY_PROVENANCE, MetadataDelta } from "../../../src/metadata/index.js";
import {
  partitionRecord,
  registerBroker,
  topicRecord,
  unfenceBroker,
  testUuid,
} from "../../../src/metadata/records.test-support.js";
import {
  ByteReader,
  ByteWriter,
  addPartitionsToTxn,
  type AddPartitionsToTxnRequest,
  type AddPartitionsToTxnResponse,
} from "../../../src/protocol/index.js";
import { TestRandom } from "../../../src/storage/manager/manager-doubles.test-support.js";
import { MemoryMetricsSink } from "../../../sim/index.js";
import { MemoryLogger } from "../../../src/broker/network/test-doubles.test-support.js";

const TIME_MS = "kafka_server_addpartitionstotxnmanager_verificationtimems";
const FAILURES = "kafka_server_addpartitionstotxnmanager_verificationfailurerate_count";

/** A request the manager sent, decoded from its v4 bytes, and how to answer it. */
interface Sent {
  readonly node: number;
  readonly body: AddPartitionsToTxnRequest;
  readonly answer: (body: AddPartitionsToTxnResponse | "unsupported") => void;
}

/** Holds each request until the test answers it. */
function heldPool(sent: Sent[]): AddPartitionsToTxnManagerOptions["pool"] {
  return {
    setNodeAddress: () => undefined,
    send: (target: unknown, _api: unknown, body: unknown) => {
      const writer = new ByteWriter();
      addPartitionsToTxn.encodeRequest(4, body as AddPartitionsToTxnRequest, writer);
      const decoded = addPartitionsToTxn.decodeRequest(4, new ByteReader(writer.finish()));
      return new Promise((resolve) => {
        sent.push({
          node: target as number,
          body: decoded,
          answer: (answer) =>
            resolve(
              answer === "unsupported"
                ? {
                    kind: "unsupportedVersion",
                    apiKey: 24,
                    allowed: { minVersion: 4, maxVersion: 5 },
                  }
                : { kind: "response", apiVersion: 4, body: answer },
            ),
        });
      });
    },
  } as unknown as AddPartitionsToTxnManagerOptions["pool"];
}

/** Brokers 1 (this one) and 2 alive; `__transaction_state` 0 led by 2, 1 by 1, 2 by dead 3. */
function metadataCache(): MetadataCache {
  const cache = new MetadataCache({ clusterId: "test-cluster", random: new TestRandom() });
  const topicId = testUuid(77);
  const delta = new MetadataDelta(EMPTY_IMAGE);
  delta.replayAll([
    ...[1, 2].flatMap((id) => [registerBroker(id, 10), unfenceBroker(id, 10)]),
    topicRecord("__transaction_state", topicId),
    ...[2, 1, 3].map((leader, partition) => partitionRecord(topicId, partition, [leader])),
  ]);
  cache.onMetadataUpdate(delta, delta.apply(EMPTY_PROVENANCE));
  return cache;
}

function managerWith(sent: Sent[]) {
  const metrics = new MemoryMetricsSink();
  let nowMs = 1_000;
  const clock = { monotonicMs: () => nowMs, advance: (ms: number) => (nowMs += ms) };
  const manager = new AddPartitionsToTxnManager({
    brokerId: 1,
    transactions: {
      // "local-*" ids are coordinated here, "dead-*" by broker 3, others by broker 2.
      partitionFor: (id) => (id.startsWith("local") ? 1 : id.startsWith("dead") ? 2 : 0),
      isInTransaction: (_id, producer, partition) =>
        producer.producerEpoch < 5
          ? ErrorCode.PRODUCER_FENCED
          : partition.partition === 9
            ? ErrorCode.TRANSACTION_ABORTABLE
            : ErrorCode.NONE,
    },
    metadataCache: metadataCache(),
    listenerName: "PLAINTEXT",
    pool: heldPool(sent),
    clock,
    metrics,
    logger: new MemoryLogger(),
  });
  return { manager, metrics, clock };
}

const question = (transactionalId: string, producerEpoch: number, ...partitions: number[]) => ({
  transactionalId,
  producerId: 40,
  producerEpoch,
  partitions: partitions.map((partition) => ({ topic: "orders", partition })),
});

function answerFor(
  body: AddPartitionsToTxnRequest,
  errorOf: (id: string, partition: number) => number,
): AddPartitionsToTxnResponse {
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    resultsByTopicV3AndBelow: [],
    resultsByTransaction: body.transactions.map((transaction) => ({
      transactionalId: transaction.transactionalId,
      topicResults: transaction.topics.map((topic) => ({
        name: topic.name,
        resultsByPartition: topic.partitions.map((partitionIndex) => ({
          partitionIndex,
          partitionErrorCode: errorOf(transaction.transactionalId, partitionIndex),
        })),
      })),
    })),
  } as unknown as AddPartitionsToTxnResponse;
}

test("the coordinator's own questions are answered at once and translated", () => {
  const sent: Sent[] = [];
  const { manager, metrics } = managerWith(sent);
  const answers = manager.verify(question("local-a", 5, 1, 9));
  assert.ok(!(answers instanceof Promise), "no await: appends keep the order of requests");
  assert.deepEqual([...answers], [["orders-9", ErrorCode.INVALID_TXN_STATE]]);
  const fenced = manager.verify(question("local-a", 4, 1));
  assert.ok(!(fenced instanceof Promise));
  assert.deepEqual([...fenced.values()], [ErrorCode.INVALID_PRODUCER_EPOCH]);
  assert.equal(sent.length, 0);
  assert.deepEqual(metrics.observationsOf(TIME_MS), [0, 0]);
  assert.equal(metrics.valueOf(FAILURES), 2);
  const dead = manager.verify(question("dead-a", 5, 1));
  assert.ok(!(dead instanceof Promise));
  assert.deepEqual([...dead.values()], [ErrorCode.COORDINATOR_NOT_AVAILABLE]);
});

test("questions to one coordinator wait for its request in flight and go together", async () => {
  const sent: Sent[] = [];
  const { manager, metrics, clock } = managerWith(sent);
  const first = manager.verify(question("a", 5, 0));
  assert.equal(sent.length, 1, "sent at once");
  const retried = manager.verify(question("b", 5, 1));
  const retry = manager.verify(question("b", 5, 1, 2));
  const older = manager.verify(question("b", 4, 3));
  const other = manager.verify(question("c", 5, 4));
  assert.equal(sent.length, 1, "one request in flight per node");
  assert.deepEqual([...(await retried).values()], [ErrorCode.NETWORK_EXCEPTION], "retried");
  assert.deepEqual([...(await older).values()], [ErrorCode.INVALID_PRODUCER_EPOCH], "fenced");

  clock.advance(7);
  sent[0]?.answer(answerFor(sent[0].body, () => ErrorCode.NONE));
  assert.deepEqual([...(await first)], [], "verified");
  assert.equal(sent.length, 2, "the waiting questions go next");
  const next = sent[1];
  assert.ok(next !== undefined);
  assert.equal(next.node, 2);
  assert.deepEqual(
    next.body.transactions.map((t) => [t.transactionalId, t.verifyOnly, t.topics[0]?.partitions]),
    [
      ["b", true, [1, 2]],
      ["c", true, [4]],
    ],
  );
  next.answer(
    answerFor(next.body, (id, partition) =>
      id === "c"
        ? ErrorCode.PRODUCER_FENCED
        : partition === 2
          ? ErrorCode.TRANSACTION_ABORTABLE
          : 0,
    ),
  );
  assert.deepEqual([...(await retry)], [["orders-2", ErrorCode.INVALID_TXN_STATE]]);
  assert.deepEqual([...(await other).values()], [ErrorCode.INVALID_PRODUCER_EPOCH]);
  assert.equal(metrics.observationsOf(TIME_MS)?.includes(7), true, "timed from the question");
  assert.equal(metrics.valueOf(FAILURES), 4);
});

test("a refused or unsupported request answers every question it carried", async () => {
  const sent: Sent[] = [];
  const { manager } = managerWith(sent);
  const denied = manager.verify(question("a", 5, 0, 1));
  const body = answerFor(sent[0]?.body as AddPartitionsToTxnRequest, () => ErrorCode.NONE);
  sent[0]?.answer({ ...body, errorCode: ErrorCode.CLUSTER_AUTHORIZATION_FAILED });
  // A producer must not see CLUSTER_AUTHORIZATION_FAILED.
  assert.deepEqual(
    [...(await denied).values()],
    [0, 1].map(() => ErrorCode.INVALID_TXN_STATE),
  );
  const unsupported = manager.verify(question("a", 5, 0));
  sent[1]?.answer("unsupported");
  assert.deepEqual([...(await unsupported)], [], "a coordinator without v4 lets it in");
});
