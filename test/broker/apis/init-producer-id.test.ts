/**
 * InitProducerId through the router and the codec at every served version: ids from the
 * controller's block (COORDINATOR_LOAD_IN_PROGRESS until it came), epoch 0, a new id for an
 * idempotent producer that names its old one (KIP-360), and Kafka's refusals.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import {
  INIT_PRODUCER_ID_VERSIONS,
  RequestRouter,
  initProducerIdHandler,
  registerApiVersions,
} from "../../../src/broker/index.js";
import { ProducerIdManager, type BlockAnswer } from "../../../src/coordinator/index.js";
import { ApiKey } from "../../../src/protocol/index.js";
import { LogHarness } from "../../storage/log-harness.js";
import { requestPath } from "../../coordinator/group-requests.js";

function newBroker(seed: number) {
  const harness = new LogHarness(seed);
  const asked: number[] = [];
  const source = {
    allocate: (): Promise<BlockAnswer> => {
      asked.push(asked.length);
      return Promise.resolve({ kind: "block", start: 7000, length: 1000 });
    },
  };
  const producerIds = new ProducerIdManager(source, {
    clock: harness.node.clock,
    logger: harness.logger,
  });
  const router = new RequestRouter({ logger: harness.logger });
  router.register(initProducerIdHandler(producerIds));
  registerApiVersions(router);
  const path = requestPath(router, harness);
  const call = (apiVersion: number, body: object) =>
    path.call(ApiKey.InitProducerId, apiVersion, body);
  return { harness, producerIds, router, asked, call };
}

const idempotent = { transactionalId: null, transactionTimeoutMs: 60_000 };

test("every version hands out ids of the controller's block with epoch 0", async () => {
  const { harness, producerIds, asked, call } = await newBroker(1);
  const first = await call(0, idempotent);
  assert.equal(first.errorCode, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
  assert.equal(first.producerId, -1);
  await harness.run(producerIds.whenIdle());
  const ids: unknown[] = [];
  const { minVersion, maxVersion } = INIT_PRODUCER_ID_VERSIONS;
  for (let version = minVersion; version <= maxVersion; version++) {
    const body = version >= 3 ? { ...idempotent, producerId: -1, producerEpoch: -1 } : idempotent;
    const answer = await call(version, body);
    assert.equal(answer.errorCode, ErrorCode.NONE, `v${version}`);
    assert.equal(answer.producerEpoch, 0);
    ids.push(answer.producerId);
  }
  assert.deepEqual(ids, [7000, 7001, 7002, 7003, 7004, 7005]);
  assert.equal(asked.length, 1, "one block serves them all");
});

test("an idempotent producer naming its id and epoch gets a new id (KIP-360)", async () => {
  const { harness, producerIds, call } = await newBroker(2);
  await call(3, { ...idempotent, producerId: -1, producerEpoch: -1 });
  await harness.run(producerIds.whenIdle());
  const first = await call(4, { ...idempotent, producerId: -1, producerEpoch: -1 });
  const bumped = await call(4, { ...idempotent, producerId: first.producerId, producerEpoch: 0 });
  assert.equal(bumped.errorCode, ErrorCode.NONE);
  assert.notEqual(bumped.producerId, first.producerId);
  assert.equal(bumped.producerEpoch, 0);
});

test("Kafka's refusals: half a producer id, an empty or any transactional id", async () => {
  const { call } = await newBroker(3);
  const half = await call(3, { ...idempotent, producerId: -1, producerEpoch: 4 });
  assert.equal(half.errorCode, ErrorCode.INVALID_REQUEST);
  const empty = await call(1, { ...idempotent, transactionalId: "" });
  assert.equal(empty.errorCode, ErrorCode.INVALID_REQUEST);
  const transactional = await call(5, {
    ...idempotent,
    transactionalId: "payments",
    producerId: -1,
    producerEpoch: -1,
  });
  assert.equal(transactional.errorCode, ErrorCode.NOT_COORDINATOR);
  assert.equal(transactional.producerId, -1);
});

test("ApiVersions advertises InitProducerId at exactly the served versions", async () => {
  const { router } = await newBroker(4);
  const range = router.apiVersions.range(ApiKey.InitProducerId);
  assert.deepEqual(
    range && { minVersion: range.minVersion, maxVersion: range.maxVersion },
    INIT_PRODUCER_ID_VERSIONS,
  );
});
