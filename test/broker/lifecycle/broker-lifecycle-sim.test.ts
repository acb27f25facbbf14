import { test } from "node:test";
import assert from "node:assert/strict";
import { brokerId, type BrokerId } from "../../../src/common/index.js";
import { readStoredNodeId, persistAssignedNodeId } from "../../../src/broker/index.js";
import { settle } from "../../../sim/index.js";
import { CLUSTER_ID } from "./fake-controller.js";
import { LOG_DIR_ID, brokerProcess, startQuorum } from "./lifecycle-harness.js";

const REGISTRATION_KEY = 62;
const HEARTBEAT_KEY = 63;

test("a broker registers fenced, heartbeats, and is unfenced once it has caught up", async () => {
  const { world, quorum } = await startQuorum(11);
  const broker = brokerProcess(world, { name: "broker-5", nodeId: brokerId(5) });
  broker.manager.start();
  const registration = await settle(world.scheduler, broker.manager.whenRegistered());
  assert.equal(registration.brokerId, 5);
  const registered = quorum.image.cluster.brokers.get(5 as BrokerId);
  assert.equal(registration.brokerEpoch, registered?.epoch);
  assert.equal(registered?.isFenced, true);

  // Until the broker reports the offset of its own registration record it is not caught up.
  await world.scheduler.runFor(3000);
  assert.equal(broker.manager.state, "starting");
  assert.equal(quorum.image.cluster.brokers.get(5 as BrokerId)?.isFenced, true);
  const early = quorum.received.filter((request) => request.apiKey === HEARTBEAT_KEY);
  assert.ok(early.length > 10, `heartbeats every 10 ms while catching up, got ${early.length}`);
  assert.ok(early.every((request) => request.body["wantFence"] === true));

  broker.metadataOffset = registration.brokerEpoch;
  await settle(world.scheduler, broker.manager.whenUnfenced());
  assert.equal(broker.manager.state, "running");
  assert.equal(broker.manager.isFenced, false);
  assert.equal(quorum.image.cluster.brokers.get(5 as BrokerId)?.isFenced, false);
  assert.deepEqual(
    broker.events.map((event) => event.kind),
    ["registered", "caughtUp", "unfenced"],
  );

  // Once running, heartbeats come every broker.heartbeat.interval.ms.
  const before = quorum.received.length;
  await world.scheduler.runFor(10_000);
  const steady = quorum.received.length - before;
  assert.ok(steady >= 4 && steady <= 6, `expected about 5 heartbeats in 10 s, got ${steady}`);
  broker.manager.close();
});

test("heartbeats move to the next voter when the controller fails over", async () => {
  const { world, quorum } = await startQuorum(12);
  const broker = brokerProcess(world, { name: "broker-6", nodeId: brokerId(6) });
  broker.metadataOffset = 1_000_000;
  broker.manager.start();
  await settle(world.scheduler, broker.manager.whenUnfenced());
  assert.equal(broker.channel.currentController.nodeId, 1);

  quorum.activeId = brokerId(2);
  const switchedAt = quorum.received.length;
  await world.scheduler.runFor(8000);
  const after = quorum.received.slice(switchedAt);
  assert.ok(
    after.some((request) => request.voterId === 1),
    "voter 1 said NOT_CONTROLLER",
  );
  assert.ok(after.filter((request) => request.voterId === 2).length >= 3);
  assert.equal(broker.channel.currentController.nodeId, 2);
  // The session never lapsed: the new controller heard from the broker all along.
  const nowMs = world.scheduler.nowMs();
  assert.ok(quorum.heartbeats.hasLiveSession(6 as BrokerId, nowMs, 2500));
  assert.equal(broker.manager.isFenced, false);
  assert.ok(!broker.events.some((event) => event.kind === "fenced"));
  broker.manager.close();
});

test("registration tries the voters in turn until the active controller accepts it", async () => {
  const { world, quorum } = await startQuorum(13);
  quorum.activeId = brokerId(2);
  const broker = brokerProcess(world, { name: "broker-7", nodeId: brokerId(7) });
  broker.manager.start();
  await settle(world.scheduler, broker.manager.whenRegistered());
  const registrations = quorum.received.filter((request) => request.apiKey === REGISTRATION_KEY);
  assert.deepEqual(
    registrations.map((request) => request.voterId),
    [1, 2],
  );
  broker.manager.close();
});

test("an assigned id is kept in meta.properties and used at the next start", async () => {
  const { world, quorum } = await startQuorum(14);
  const disk = world.disk("broker-x");
  const logDir = "/var/sluice/data";
  const persist = (nodeId: BrokerId): Promise<void> =>
    persistAssignedNodeId(disk, {
      logDirs: [{ logDir, directoryId: LOG_DIR_ID }],
      clusterId: CLUSTER_ID,
      nodeId,
      nowMs: world.scheduler.nowMs(),
    });
  assert.deepEqual(await settle(world.scheduler, readStoredNodeId(disk, [logDir])), {
    kind: "none",
  });
  const first = brokerProcess(world, {
    name: "broker-x",
    nodeId: undefined,
    persistAssignedBrokerId: persist,
  });
  first.manager.start();
  const registration = await settle(world.scheduler, first.manager.whenRegistered());
  assert.equal(registration.brokerId, 1000);
  const sent = quorum.received.find((request) => request.apiKey === REGISTRATION_KEY);
  assert.equal(sent?.body["brokerId"], -1);
  await world.scheduler.runFor(100);
  const heartbeat = quorum.received.find((request) => request.apiKey === HEARTBEAT_KEY);
  assert.equal(heartbeat?.body["brokerId"], 1000);
  first.manager.close();

  const stored = await settle(world.scheduler, readStoredNodeId(disk, [logDir]));
  assert.equal(stored.kind, "stored");
  assert.equal(stored.kind === "stored" ? stored.nodeId : -1, 1000);
  assert.equal(stored.kind === "stored" ? stored.directoryIds.get(logDir) : "", LOG_DIR_ID);

  // The next process (another incarnation) registers under the stored id.
  const nodeId = stored.kind === "stored" ? stored.nodeId : undefined;
  const second = brokerProcess(world, { name: "broker-x2", nodeId });
  const received = quorum.received.length;
  second.manager.start();
  const again = await settle(world.scheduler, second.manager.whenRegistered());
  assert.equal(again.brokerId, 1000);
  assert.ok(again.brokerEpoch > registration.brokerEpoch);
  const resent = quorum.received.slice(received).find((r) => r.apiKey === REGISTRATION_KEY);
  assert.equal(resent?.body["brokerId"], 1000);
  assert.equal(quorum.image.cluster.brokers.size, 1);
  second.manager.close();
});

test("a controlled shutdown waits until the controller says the broker may stop", async () => {
  const { world, quorum } = await startQuorum(15);
  const broker = brokerProcess(world, { name: "broker-8", nodeId: brokerId(8) });
  broker.metadataOffset = 1_000_000;
  broker.manager.start();
  await settle(world.scheduler, broker.manager.whenUnfenced());
  const before = quorum.received.length;
  const outcome = await settle(world.scheduler, broker.manager.beginControlledShutdown());
  assert.equal(outcome, "approved");
  assert.equal(broker.manager.state, "shuttingDown");
  const asked = quorum.received
    .slice(before)
    .filter((request) => request.apiKey === HEARTBEAT_KEY && request.body["wantShutDown"]);
  // The first answer moves the broker into controlled shutdown; a later one lets it go.
  assert.ok(asked.length >= 2, `expected at least two shutdown heartbeats, got ${asked.length}`);
  assert.equal(quorum.image.cluster.brokers.get(8 as BrokerId)?.isInControlledShutdown, true);
  assert.equal(broker.events.at(-1)?.kind, "readyToShutDown");
});

test("a controlled shutdown the controller never approves ends at its deadline", async () => {
  const { world, quorum } = await startQuorum(16);
  const broker = brokerProcess(world, {
    name: "broker-9",
    nodeId: brokerId(9),
    config: { controlledShutdownTimeoutMs: 5000 },
  });
  broker.metadataOffset = 1_000_000;
  broker.manager.start();
  await settle(world.scheduler, broker.manager.whenUnfenced());
  quorum.isHeartbeatSilent = true;
  const startedMs = world.scheduler.nowMs();
  const outcome = await settle(world.scheduler, broker.manager.beginControlledShutdown());
  assert.equal(outcome, "timedOut");
  assert.equal(world.scheduler.nowMs() - startedMs, 5000);
  assert.equal(broker.manager.state, "shuttingDown");
});

test("a broker that cannot register before the initial timeout gives up", async () => {
  const { world, quorum } = await startQuorum(17);
  quorum.activeId = brokerId(3);
  const broker = brokerProcess(world, {
    name: "broker-10",
    nodeId: brokerId(10),
    config: { initialRegistrationTimeoutMs: 20_000 },
  });
  broker.manager.start();
  const registered = broker.manager.whenRegistered();
  await assert.rejects(settle(world.scheduler, registered), /stopped before it was registered/);
  assert.equal(broker.manager.state, "shuttingDown");
  assert.ok(broker.events.some((event) => event.kind === "registrationTimedOut"));
});

test("after a controlled shutdown the broker's next incarnation registers at once", async () => {
  const { world, quorum } = await startQuorum(17);
  const first = brokerProcess(world, { name: "broker-9", nodeId: brokerId(9) });
  first.metadataOffset = 1_000_000;
  first.manager.start();
  await settle(world.scheduler, first.manager.whenUnfenced());
  assert.equal(await settle(world.scheduler, first.manager.beginControlledShutdown()), "approved");
  first.manager.close();
  // Kafka's SHUTDOWN_NOW: the approval fenced the registration, so no session outlives it.
  assert.equal(quorum.image.cluster.brokers.get(9 as BrokerId)?.isFenced, true);
  const before = quorum.received.length;
  const next = brokerProcess(world, { name: "broker-9-again", nodeId: brokerId(9) });
  next.manager.start();
  await settle(world.scheduler, next.manager.whenRegistered());
  const answered = quorum.received
    .slice(before)
    .filter(
      (request) => request.apiKey === REGISTRATION_KEY && request.voterId === quorum.activeId,
    );
  assert.equal(answered.length, 1, "the first registration the active controller saw succeeded");
  next.manager.close();
});
