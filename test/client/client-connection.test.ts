import { test } from "node:test";
import assert from "node:assert/strict";
import { brokerId } from "../../src/common/index.js";
import type { Address, Network } from "../../src/ports/index.js";
import { describeQuorum } from "../../src/protocol/index.js";
import {
  ClientPool,
  type ClientOptions,
  type ClientPorts,
  type ClientResult,
} from "../../src/client/index.js";
import { SimWorld } from "../../sim/world.js";
import { settle } from "../../sim/settle.js";
import { TestBroker, type ServedRanges } from "./test-broker.js";

const DESCRIBE_QUORUM_KEY = 55;
const brokerAddress: Address = { host: "broker", port: 9093 };

interface Setup {
  readonly world: SimWorld;
  readonly broker: TestBroker;
  readonly pool: ClientPool;
  readonly connectTimesMs: number[];
}

/** A broker node and a client node on a simulated network, and a pool on the client. */
async function setUp(
  served: ServedRanges,
  options: Partial<ClientOptions> = {},
  seed = 7,
): Promise<Setup> {
  const world = new SimWorld({ seed });
  const broker = new TestBroker(served);
  await broker.listen(world.network.forNode("broker"), brokerAddress);
  const node = world.scheduler.node("client");
  const network = world.network.forNode("client");
  const connectTimesMs: number[] = [];
  const recording: Network = {
    listen: (address, onConnection) => network.listen(address, onConnection),
    connect: (address) => {
      connectTimesMs.push(world.scheduler.nowMs());
      return network.connect(address);
    },
  };
  const ports: ClientPorts = {
    network: recording,
    timers: node.timers,
    clock: node.clock,
    random: node.random,
  };
  return { world, broker, pool: new ClientPool(ports, options), connectTimesMs };
}

const serveAll: ServedRanges = [
  { apiKey: 18, minVersion: 0, maxVersion: 4 },
  { apiKey: DESCRIBE_QUORUM_KEY, minVersion: 0, maxVersion: 2 },
];

function describe(topicName: string): { topics: { topicName: string; partitions: [] }[] } {
  return { topics: [{ topicName, partitions: [] }] };
}

/** A DescribeQuorum answer naming `topicName`, so a test can tell responses apart. */
function answerFor(topicName: string): object {
  return { errorCode: 0, topics: [{ topicName, partitions: [] }] };
}

function topicOf(result: ClientResult<{ topics: { topicName: string }[] }>): string {
  assert.equal(result.kind, "response", JSON.stringify(result));
  return result.kind === "response" ? (result.body.topics[0]?.topicName ?? "") : "";
}

test(
  "a request goes out at the highest version both sides serve, within " + "the caller's range",
  async () => {
    const { world, broker, pool } = await setUp([
      { apiKey: 18, minVersion: 0, maxVersion: 4 },
      { apiKey: DESCRIBE_QUORUM_KEY, minVersion: 0, maxVersion: 1 },
    ]);
    broker.onRequest = (request) => request.reply(answerFor("__cluster_metadata"));
    const highest = await settle(
      world.scheduler,
      pool.send(brokerAddress, describeQuorum, describe("a")),
    );
    assert.equal(highest.kind === "response" && highest.apiVersion, 1);
    const capped = pool.send(brokerAddress, describeQuorum, describe("a"), { maxVersion: 0 });
    const cappedResult = await settle(world.scheduler, capped);
    assert.equal(cappedResult.kind === "response" && cappedResult.apiVersion, 0);
    const tooNew = pool.send(brokerAddress, describeQuorum, describe("a"), { minVersion: 2 });
    assert.deepEqual(await settle(world.scheduler, tooNew), {
      kind: "unsupportedVersion",
      apiKey: DESCRIBE_QUORUM_KEY,
      allowed: { minVersion: 2, maxVersion: 2 },
      served: { minVersion: 0, maxVersion: 1 },
    });
    assert.deepEqual(
      broker.requests.map((request) => request.header.apiVersion),
      [1, 0],
    );
    assert.deepEqual(broker.apiVersionsSeen, [4], "one negotiation per connection");
  },
);

test("an API the peer does not serve fails as unsupported without being sent", async () => {
  const { world, broker, pool } = await setUp([{ apiKey: 18, minVersion: 0, maxVersion: 4 }]);
  const result = await settle(
    world.scheduler,
    pool.send(brokerAddress, describeQuorum, describe("a")),
  );
  assert.equal(result.kind, "unsupportedVersion");
  assert.equal(result.kind === "unsupportedVersion" && result.served, undefined);
  assert.equal(broker.requests.length, 0);
});

test(
  "an older peer's UNSUPPORTED_VERSION answer makes the client retry " +
    "ApiVersions lower (KIP-511)",
  async () => {
    const { world, broker, pool } = await setUp([
      { apiKey: 18, minVersion: 0, maxVersion: 2 },
      { apiKey: DESCRIBE_QUORUM_KEY, minVersion: 0, maxVersion: 2 },
    ]);
    broker.onRequest = (request) => request.reply(answerFor("x"));
    const result = await settle(
      world.scheduler,
      pool.send(brokerAddress, describeQuorum, describe("x")),
    );
    assert.equal(topicOf(result), "x");
    assert.deepEqual(broker.apiVersionsSeen, [4, 2]);
    assert.equal(broker.connections.length, 1, "the retry uses the same connection");
  },
);

test("responses that come back out of order reach the requests they answer", async () => {
  const { world, broker, pool } = await setUp(serveAll);
  const names = ["a", "b", "c", "d"];
  const sends = names.map((name) => pool.send(brokerAddress, describeQuorum, describe(name)));
  await world.scheduler.runUntil(() => broker.requests.length === 4, 10_000);
  for (const request of [...broker.requests].reverse()) {
    const topics = request.body["topics"] as { topicName: string }[];
    request.reply(answerFor(topics[0]?.topicName ?? ""));
  }
  const results = await settle(world.scheduler, Promise.all(sends));
  assert.deepEqual(results.map(topicOf), names);
});

test("a response with a correlation id nobody waits for closes the connection", async () => {
  const { world, broker, pool } = await setUp(serveAll);
  broker.onRequest = (request) => request.reply(answerFor("a"), 999_999);
  const result = await settle(
    world.scheduler,
    pool.send(brokerAddress, describeQuorum, describe("a")),
  );
  assert.equal(result.kind, "disconnected");
  assert.equal(result.kind === "disconnected" && result.reason, "unknownCorrelationId");
});

test(
  "a request without an answer times out at its deadline and the next " + "one reconnects",
  async () => {
    const { world, broker, pool } = await setUp(serveAll, { requestTimeoutMs: 2000 });
    const startMs = world.scheduler.nowMs();
    const result = await settle(
      world.scheduler,
      pool.send(brokerAddress, describeQuorum, describe("a")),
    );
    assert.deepEqual(result, { kind: "timeout", timeoutMs: 2000 });
    assert.equal(world.scheduler.nowMs() - startMs, 2000);
    broker.onRequest = (request) => request.reply(answerFor("b"));
    const again = pool.send(brokerAddress, describeQuorum, describe("b"), { timeoutMs: 500 });
    assert.equal(topicOf(await settle(world.scheduler, again)), "b");
    assert.equal(broker.connections.length, 2, "a timed-out connection is replaced");
  },
);

test("a connection lost mid-request fails every request waiting on it", async () => {
  const { world, broker, pool } = await setUp(serveAll);
  let seen = 0;
  broker.onRequest = (request) => {
    seen += 1;
    if (seen === 2) request.connection.close();
  };
  const first = pool.send(brokerAddress, describeQuorum, describe("a"));
  const second = pool.send(brokerAddress, describeQuorum, describe("b"));
  const results = await settle(world.scheduler, Promise.all([first, second]));
  for (const result of results) {
    assert.equal(result.kind === "disconnected" && result.reason, "connectionLost");
  }
});

test("reconnects back off exponentially with jitter up to reconnect.backoff.max.ms", async () => {
  const { world, pool, connectTimesMs } = await setUp(serveAll);
  const nowhere: Address = { host: "broker", port: 1 };
  for (let attempt = 0; attempt < 8; attempt++) {
    const result = await settle(world.scheduler, pool.send(nowhere, describeQuorum, describe("a")));
    assert.equal(result.kind === "disconnected" && result.reason, "connectFailed");
  }
  const bases = [50, 100, 200, 400, 800, 1000, 1000];
  for (const [index, base] of bases.entries()) {
    // Each failure is reported one network delay after the attempt; the backoff starts then.
    const gapMs = (connectTimesMs[index + 1] as number) - (connectTimesMs[index] as number);
    assert.ok(gapMs >= base * 0.8, `gap ${index} is ${gapMs} ms, base ${base}`);
    assert.ok(gapMs <= base * 1.2 + 20, `gap ${index} is ${gapMs} ms, base ${base}`);
  }
});

test("requests beyond the in-flight limit queue, and beyond the queue limit fail", async () => {
  const options = { inFlightRequestsMax: 2, queuedRequestsMax: 3 };
  const { world, broker, pool } = await setUp(serveAll, options);
  const sends = ["a", "b", "c", "d", "e"].map((name) =>
    pool.send(brokerAddress, describeQuorum, describe(name)),
  );
  const overflow = await settle(world.scheduler, sends[3] as Promise<ClientResult<object>>);
  assert.deepEqual(overflow, { kind: "queueFull", queuedRequestsMax: 3 });
  await world.scheduler.runFor(1000);
  assert.equal(broker.requests.length, 2, "only two requests are written at a time");
  broker.onRequest = (request) => request.reply(answerFor("later"));
  for (const request of broker.requests.slice(0, 2)) request.reply(answerFor("first"));
  const results = await settle(world.scheduler, Promise.all([sends[0], sends[1], sends[2]]));
  assert.deepEqual(
    results.map((result) => result?.kind),
    ["response", "response", "response"],
  );
});

test(
  "the pool sends by node id, refuses unknown nodes, and moves with a " + "node's address",
  async () => {
    const { world, broker, pool } = await setUp(serveAll);
    broker.onRequest = (request) => request.reply(answerFor("n"));
    const unknown = await settle(
      world.scheduler,
      pool.send(brokerId(3), describeQuorum, describe("n")),
    );
    assert.deepEqual(unknown, { kind: "unknownNode", nodeId: 3 });
    pool.setNodeAddress(brokerId(3), brokerAddress);
    const known = await settle(
      world.scheduler,
      pool.send(brokerId(3), describeQuorum, describe("n")),
    );
    assert.equal(topicOf(known), "n");
    const moved = new TestBroker(serveAll);
    const movedAddress = await moved.listen(world.network.forNode("moved"), {
      host: "moved",
      port: 9093,
    });
    moved.onRequest = (request) => request.reply(answerFor("moved"));
    pool.setNodeAddress(brokerId(3), movedAddress);
    const after = await settle(
      world.scheduler,
      pool.send(brokerId(3), describeQuorum, describe("n")),
    );
    assert.equal(topicOf(after), "moved");
  },
);

test("closing the pool fails waiting requests and every later one", async () => {
  const { world, pool } = await setUp(serveAll);
  const waiting = pool.send(brokerAddress, describeQuorum, describe("a"));
  await world.scheduler.runFor(100);
  pool.close();
  const result = await settle(world.scheduler, waiting);
  assert.equal(result.kind === "disconnected" && result.reason, "clientClosed");
  const later = await settle(
    world.scheduler,
    pool.send(brokerAddress, describeQuorum, describe("a")),
  );
  assert.equal(later.kind === "disconnected" && later.reason, "clientClosed");
});
