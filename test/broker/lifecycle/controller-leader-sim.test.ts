/**
 * The controller channel follows the metadata log's Raft leader: when the node learns of a new
 * leader, a request waiting out its retry backoff is sent to that leader at once. The backoff
 * here is 10 s so that "at once" and "after the backoff" are far apart in simulated time.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, brokerId } from "../../../src/common/index.js";
import { createTopics } from "../../../src/protocol/index.js";
import { ControllerChannel } from "../../../src/broker/index.js";
import { MemoryLogger } from "../../../src/broker/network/test-doubles.test-support.js";
import { settle, type SimWorld } from "../../../sim/index.js";
import { VOTERS, brokerProcess, startQuorum } from "./lifecycle-harness.js";

const CREATE_TOPICS_KEY = 19;
const RETRY_BACKOFF_MS = 10_000;

const createOrders = {
  topics: [
    { name: "orders", numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] },
  ],
  timeoutMs: 60_000,
  validateOnly: false,
};

/** A channel on a broker node of `world` whose retries wait `RETRY_BACKOFF_MS`. */
function slowRetryChannel(world: SimWorld, name: string): ControllerChannel {
  const broker = brokerProcess(world, { name, nodeId: brokerId(7) });
  const node = world.scheduler.node(name);
  return new ControllerChannel(
    { pool: broker.pool, clock: node.clock, timers: node.timers, logger: new MemoryLogger() },
    { endpoints: VOTERS, requestTimeoutMs: 30_000, retryBackoffMs: RETRY_BACKOFF_MS },
  );
}

test("a request in retry backoff goes to a new Raft leader as soon as it is known", async () => {
  const { world, quorum } = await startQuorum(31);
  quorum.activeId = brokerId(3);
  const channel = slowRetryChannel(world, "broker-7");
  const pending = channel.send(createTopics, createOrders, { timeoutMs: 60_000 });
  await world.scheduler.runFor(1000);
  const attempts = () =>
    quorum.received.filter((r) => r.apiKey === CREATE_TOPICS_KEY).map((r) => r.voterId);
  assert.deepEqual(attempts(), [1], "voter 1 said NOT_CONTROLLER; the retry waits its backoff");

  quorum.activeId = brokerId(2);
  const electedAtMs = world.scheduler.nowMs();
  channel.followLeader(brokerId(2));
  const result = await settle(world.scheduler, pending);
  assert.equal(result.kind, "response");
  // No broker is registered, so the controller refuses the topic; what counts is who answered.
  assert.equal(result.kind === "response" ? result.controller.nodeId : undefined, 2);
  assert.notEqual(
    result.kind === "response" ? result.body.topics[0]?.errorCode : undefined,
    ErrorCode.NOT_CONTROLLER,
  );
  assert.deepEqual(attempts(), [1, 2]);
  const waitedMs = world.scheduler.nowMs() - electedAtMs;
  assert.ok(waitedMs < RETRY_BACKOFF_MS / 10, `answered ${waitedMs} ms after the election`);
});

test("no leader, or a leader that is not a controller, leaves the backoff as it is", async () => {
  const { world, quorum } = await startQuorum(32);
  quorum.activeId = brokerId(3);
  const channel = slowRetryChannel(world, "broker-8");
  let isSettled = false;
  const pending = channel.send(createTopics, createOrders, { timeoutMs: 60_000 });
  void pending.then(() => (isSettled = true));
  await world.scheduler.runFor(1000);
  channel.followLeader(undefined);
  channel.followLeader(brokerId(9));
  await world.scheduler.runFor(RETRY_BACKOFF_MS / 2);
  assert.equal(isSettled, false);
  const attempts = quorum.received.filter((r) => r.apiKey === CREATE_TOPICS_KEY);
  assert.equal(attempts.length, 1, "no retry before the backoff ends");

  quorum.activeId = brokerId(2);
  const result = await settle(world.scheduler, pending);
  assert.equal(result.kind, "response");
  channel.close();
});
