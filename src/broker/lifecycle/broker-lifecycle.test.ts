import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, brokerId, type Uuid } from "../../common/index.js";
import { BrokerLifecycle } from "./broker-lifecycle.js";
import { DEFAULT_BROKER_LIFECYCLE_CONFIG, retryDelayMs } from "./lifecycle-config.js";
import type { BrokerIdentity } from "./lifecycle-types.js";

const identity: BrokerIdentity = {
  nodeId: undefined,
  clusterId: "c",
  incarnationId: "b0000000000000000000000000000001" as Uuid,
  listeners: [],
  rack: null,
  logDirIds: ["b0000000000000000000000000000003", "b0000000000000000000000000000002"] as Uuid[],
  features: [],
  previousBrokerEpoch: 41,
};
const report = { metadataOffset: 7, offlineLogDirs: [] };
const heartbeatAnswer = { throttleTimeMs: 0, errorCode: 0, shouldShutDown: false };

/** Broker 3's lifecycle, started and registered with epoch 9. */
function registeredLifecycle(config = DEFAULT_BROKER_LIFECYCLE_CONFIG): BrokerLifecycle {
  const lifecycle = new BrokerLifecycle({ ...identity, nodeId: brokerId(3) }, config);
  lifecycle.start();
  lifecycle.onRegistrationResponse({
    throttleTimeMs: 0,
    errorCode: 0,
    brokerEpoch: 9,
    assignedBrokerId: -1,
  });
  return lifecycle;
}

test("a broker without an id registers with -1, then uses the id it was given", () => {
  const lifecycle = new BrokerLifecycle(identity, DEFAULT_BROKER_LIFECYCLE_CONFIG);
  assert.equal(lifecycle.start().communicateInMs, 0);
  const first = lifecycle.nextCommunication(report);
  assert.equal(first?.kind, "registration");
  if (first?.kind !== "registration") return;
  assert.equal(first.body.brokerId, -1);
  assert.equal(first.body.previousBrokerEpoch, 41);
  assert.deepEqual(first.body.logDirs, [identity.logDirIds[1], identity.logDirIds[0]]);
  // A controller that assigns no id leaves -1: the registration counts as failed.
  const refused = { throttleTimeMs: 0, errorCode: 0, brokerEpoch: 5, assignedBrokerId: -1 };
  assert.equal(lifecycle.onRegistrationResponse(refused).communicateInMs, 100);
  assert.equal(lifecycle.registration, undefined);
  const accepted = { ...refused, assignedBrokerId: 1000 };
  const step = lifecycle.onRegistrationResponse(accepted);
  assert.deepEqual(step.events, [
    { kind: "registered", registration: { brokerId: 1000, brokerEpoch: 5 }, isAssignedId: true },
  ]);
  const heartbeat = lifecycle.nextCommunication(report);
  assert.deepEqual(heartbeat, {
    kind: "heartbeat",
    body: {
      brokerId: 1000,
      brokerEpoch: 5,
      currentMetadataOffset: 7,
      wantFence: true,
      wantShutDown: false,
      offlineLogDirs: [],
    },
  });
});

test("a refused heartbeat (stale epoch) makes the broker register again under its id", () => {
  const lifecycle = registeredLifecycle();
  lifecycle.onHeartbeatResponse({ ...heartbeatAnswer, isCaughtUp: true, isFenced: false });
  const step = lifecycle.onHeartbeatResponse({
    ...heartbeatAnswer,
    errorCode: ErrorCode.STALE_BROKER_EPOCH,
    isCaughtUp: false,
    isFenced: true,
  });
  assert.deepEqual(
    step.events.map((event) => event.kind),
    ["registrationLost", "fenced"],
  );
  const next = lifecycle.nextCommunication(report);
  assert.equal(next?.kind, "registration");
  assert.equal(next?.kind === "registration" ? next.body.brokerId : 0, 3);
});

test("with explicit readiness the broker keeps wanting to be fenced until it is ready", () => {
  const config = { ...DEFAULT_BROKER_LIFECYCLE_CONFIG, unfenceReadiness: "explicit" as const };
  const lifecycle = registeredLifecycle(config);
  const caughtUp = lifecycle.onHeartbeatResponse({
    ...heartbeatAnswer,
    isCaughtUp: true,
    isFenced: true,
  });
  assert.deepEqual(caughtUp.events, [{ kind: "caughtUp" }]);
  assert.equal(lifecycle.state, "recovery");
  const before = lifecycle.nextCommunication(report);
  assert.equal(before?.kind === "heartbeat" && before.body.wantFence, true);
  assert.equal(lifecycle.setReadyToUnfence().communicateInMs, 0);
  const after = lifecycle.nextCommunication(report);
  assert.equal(after?.kind === "heartbeat" && after.body.wantFence, false);
});

test("a broker that is not running shuts down at once when asked for a controlled shutdown", () => {
  const lifecycle = new BrokerLifecycle(identity, DEFAULT_BROKER_LIFECYCLE_CONFIG);
  lifecycle.start();
  const step = lifecycle.beginControlledShutdown();
  assert.deepEqual(step, { communicateInMs: undefined, events: [{ kind: "readyToShutDown" }] });
  assert.equal(lifecycle.nextCommunication(report), undefined);
});

test("retries wait 100 ms doubling, never longer than the heartbeat interval", () => {
  const delays = [1, 2, 3, 4, 5, 6, 40].map((n) =>
    retryDelayMs(DEFAULT_BROKER_LIFECYCLE_CONFIG, n),
  );
  assert.deepEqual(delays, [100, 200, 400, 800, 1600, 2000, 2000]);
});

test("an offline dir counts as reported only once a heartbeat naming it is accepted", () => {
  const lifecycle = registeredLifecycle();
  const failed = identity.logDirIds[0];
  assert.ok(failed !== undefined);
  const withFailure = { metadataOffset: 7, offlineLogDirs: [failed] };
  const sent = lifecycle.nextCommunication(withFailure);
  assert.deepEqual(sent?.kind === "heartbeat" ? sent.body.offlineLogDirs : [], [failed]);
  // Refused (a controller that is not the active one): not reported yet.
  const refused = { ...heartbeatAnswer, errorCode: ErrorCode.NOT_CONTROLLER };
  lifecycle.onHeartbeatResponse({ ...refused, isCaughtUp: true, isFenced: false }, [failed]);
  assert.equal(lifecycle.isOfflineDirAcknowledged(failed), false);
  lifecycle.onHeartbeatResponse({ ...heartbeatAnswer, isCaughtUp: true, isFenced: false }, [
    failed,
  ]);
  assert.equal(lifecycle.isOfflineDirAcknowledged(failed), true);
  // Back online, then failing again: that failure must be reported anew.
  lifecycle.nextCommunication(report);
  assert.equal(lifecycle.isOfflineDirAcknowledged(failed), false);
  const step = lifecycle.offlineDirsUnreported([failed]);
  assert.deepEqual(step.events, [{ kind: "offlineDirsUnreported", dirs: [failed] }]);
  assert.equal(lifecycle.state, "shuttingDown");
  assert.equal(lifecycle.nextCommunication(withFailure), undefined);
});
