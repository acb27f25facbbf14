import { test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError, brokerId, leaderEpoch } from "../common/index.js";
import { assessHealth, healthRoute, type NodeHealth } from "./health.js";

const serving: NodeHealth = {
  nodeId: brokerId(1),
  roles: ["broker", "controller"],
  broker: { state: "running", isRegistered: true, isFenced: false },
  quorum: { leaderId: brokerId(1), leaderEpoch: leaderEpoch(3) },
  logDirs: [{ path: "data", isOffline: false }],
};

test("a registered, unfenced, running broker with a quorum leader and its dirs is serving", () => {
  assert.deepEqual(assessHealth(serving), { kind: "serving" });
  const response = healthRoute({ health: () => serving }).handle({
    method: "GET",
    path: "/health",
    headers: {},
    query: {},
  });
  assert.equal(response.status, 200);
  assert.equal(response.contentType, "application/json; charset=utf-8");
  assert.deepEqual(JSON.parse(response.body), {
    status: "ok",
    reasons: [],
    nodeId: 1,
    roles: ["broker", "controller"],
    broker: { state: "running", isRegistered: true, isFenced: false },
    quorum: { leaderId: 1, leaderEpoch: 3 },
    logDirs: [{ path: "data", isOffline: false }],
  });
});

test("every reason a node is not serving is listed, and the route answers 503", () => {
  const failing: NodeHealth = {
    ...serving,
    broker: { state: "starting", isRegistered: false, isFenced: true },
    quorum: { leaderId: undefined, leaderEpoch: leaderEpoch(4) },
    logDirs: [
      { path: "a", isOffline: true },
      { path: "b", isOffline: false },
      { path: "c", isOffline: true },
    ],
  };
  const reasons = [
    "broker is not registered with the controller quorum",
    "broker state is starting",
    "no controller quorum leader is known",
    "log dir a is offline",
    "log dir c is offline",
  ];
  assert.deepEqual(assessHealth(failing), { kind: "unavailable", reasons });
  const response = healthRoute({ health: () => failing }).handle({
    method: "GET",
    path: "/health",
    headers: {},
    query: {},
  });
  assert.equal(response.status, 503);
  const body = JSON.parse(response.body) as { status: string; reasons: string[] };
  assert.equal(body.status, "unavailable");
  assert.deepEqual(body.reasons, reasons);
  assert.deepEqual((JSON.parse(response.body) as { quorum: unknown }).quorum, {
    leaderId: null,
    leaderEpoch: 4,
  });
});

test("a registered broker that is still fenced is not serving", () => {
  const fenced: NodeHealth = {
    ...serving,
    broker: { state: "running", isRegistered: true, isFenced: true },
  };
  assert.deepEqual(assessHealth(fenced), {
    kind: "unavailable",
    reasons: ["broker is fenced by the controller"],
  });
});

test("a controller-only node is judged by its quorum and dirs, with no broker part", () => {
  const controller: NodeHealth = { ...serving, roles: ["controller"], broker: undefined };
  assert.deepEqual(assessHealth(controller), { kind: "serving" });
  const leaderless = {
    ...controller,
    quorum: { leaderId: undefined, leaderEpoch: leaderEpoch(0) },
  };
  assert.equal(assessHealth(leaderless).kind, "unavailable");
  const body = JSON.parse(
    healthRoute({ health: () => controller }).handle({
      method: "GET",
      path: "/health",
      headers: {},
      query: {},
    }).body,
  ) as { broker: unknown };
  assert.equal(body.broker, null);
});

test("broker health given without the broker role, or missing with it, is a bug", () => {
  assert.throws(() => assessHealth({ ...serving, broker: undefined }), AssertionError);
  assert.throws(() => assessHealth({ ...serving, roles: ["controller"] }), AssertionError);
});
