import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, brokerId } from "../../../src/common/index.js";
import { createTopics } from "../../../src/protocol/index.js";
import { ControllerForwarder } from "../../../src/broker/index.js";
import { settle } from "../../../sim/index.js";
import { brokerProcess, startQuorum } from "./lifecycle-harness.js";

const CREATE_TOPICS_KEY = 19;

function createOrders(timeoutMs: number) {
  return {
    topics: [
      { name: "orders", numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] },
    ],
    timeoutMs,
    validateOnly: false,
  };
}

test("a forwarded CreateTopics goes to the next voter on NOT_CONTROLLER", async () => {
  const { world, quorum } = await startQuorum(21);
  const broker = brokerProcess(world, { name: "broker-4", nodeId: brokerId(4) });
  broker.metadataOffset = 1_000_000;
  broker.manager.start();
  await settle(world.scheduler, broker.manager.whenUnfenced());
  quorum.activeId = brokerId(2);
  const forwarder = new ControllerForwarder(broker.channel, { requestTimeoutMs: 30_000 });
  const result = await settle(
    world.scheduler,
    forwarder.forward(createTopics, 5, createOrders(5000)),
  );
  assert.equal(result.kind, "response");
  const topic = result.kind === "response" ? result.body.topics[0] : undefined;
  assert.equal(topic?.name, "orders");
  assert.equal(topic?.errorCode, ErrorCode.NONE);
  assert.ok(quorum.image.topics.byName.get("orders") !== undefined);
  const sent = quorum.received.filter((request) => request.apiKey === CREATE_TOPICS_KEY);
  assert.deepEqual(
    sent.map((request) => request.voterId),
    [1, 2],
  );
  broker.manager.close();
});

test("forwarding ends in REQUEST_TIMED_OUT when no controller answers in time", async () => {
  const { world, quorum } = await startQuorum(22);
  quorum.activeId = brokerId(3);
  const broker = brokerProcess(world, { name: "broker-5", nodeId: brokerId(5) });
  const forwarder = new ControllerForwarder(broker.channel, { requestTimeoutMs: 30_000 });
  const startedMs = world.scheduler.nowMs();
  const result = await settle(
    world.scheduler,
    forwarder.forward(createTopics, 5, createOrders(3000)),
  );
  assert.equal(result.kind, "failed");
  assert.equal(result.kind === "failed" ? result.errorCode : 0, ErrorCode.REQUEST_TIMED_OUT);
  assert.ok(world.scheduler.nowMs() - startedMs <= 3000 + 100);
  const sent = quorum.received.filter((request) => request.apiKey === CREATE_TOPICS_KEY);
  assert.ok(sent.length >= 10, `retried on both voters, ${sent.length} attempts`);
});
