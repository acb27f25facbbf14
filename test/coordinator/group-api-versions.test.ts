/**
 * Every group API answers at every version it advertises, through the codec: a whole group
 * lifecycle per round of versions, refusals when this broker is not the coordinator, and the
 * error responses the router builds when a handler fails.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { OFFSETS_TOPIC } from "../../src/coordinator/index.js";
import {
  FIND_COORDINATOR_VERSIONS,
  JOIN_GROUP_VERSIONS,
} from "../../src/broker/apis/groups/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";
import { API, findCoordinatorBody, joinGroupBody } from "./group-bodies.js";
import {
  ADVERTISED,
  bodyOf,
  errorCodesOf,
  failingRouter,
  joinStep,
  leaveStep,
  roundOf,
  syncStep,
  commitStep,
} from "./group-lifecycle.js";

test("a group lives through join, sync, commit, leave and delete at every version", async () => {
  const broker = await GroupBroker.open(new LogHarness(7), { hasOffsetsTopic: true });
  for (let round = 0; round <= JOIN_GROUP_VERSIONS.maxVersion; round++) {
    const groupId = `group-${round}`;
    await broker.untilLoaded(groupId);
    const step = roundOf(broker, groupId, round);
    const memberId = await joinStep(step);
    await syncStep(step, memberId);
    await commitStep(step, memberId);
    await leaveStep(step, memberId);
  }
  await broker.close();
});

test("a broker that does not coordinate refuses group requests at every version", async () => {
  const broker = await GroupBroker.open(new LogHarness(8), { hasOffsetsTopic: false });
  for (const [name, range] of Object.entries(ADVERTISED)) {
    const apiKey = API[name as keyof typeof API];
    for (let version = range.minVersion; version <= range.maxVersion; version++) {
      const response = await broker.call(apiKey, version, bodyOf(apiKey, version, "nowhere"));
      // From v2 OffsetFetch carries the coordinator's error at the top, its partitions none.
      const codes =
        apiKey === API.offsetFetch && version >= 2
          ? [at(response, "errorCode") as number]
          : errorCodesOf(apiKey, version, response);
      // FindCoordinator asks the controller for __consumer_offsets and says to retry later.
      const expected =
        apiKey === API.findCoordinator
          ? ErrorCode.COORDINATOR_NOT_AVAILABLE
          : apiKey === API.listGroups
            ? ErrorCode.NONE
            : ErrorCode.NOT_COORDINATOR;
      assert.ok(codes.length > 0, `${name} v${version} has an error code`);
      for (const code of codes) assert.equal(code, expected, `${name} v${version}`);
    }
  }
  const offsetsPartitions = broker.replicaManager
    .onlinePartitions()
    .filter((partition) => partition.topicPartition.topic === OFFSETS_TOPIC);
  assert.equal(offsetsPartitions.length, 0, "FindCoordinator only asks the controller for it");
  await broker.close();
});

test("a failing group handler answers UNKNOWN_SERVER_ERROR at every version", async () => {
  const broker = await GroupBroker.open(new LogHarness(9), { hasOffsetsTopic: true });
  const router = failingRouter(broker);
  for (const [name, range] of Object.entries(ADVERTISED)) {
    const apiKey = API[name as keyof typeof API];
    for (let version = range.minVersion; version <= range.maxVersion; version++) {
      const response = await router.call(apiKey, version, bodyOf(apiKey, version, "failing"));
      const codes = errorCodesOf(apiKey, version, response);
      assert.ok(codes.length > 0, `${name} v${version} has an error code`);
      for (const code of codes) {
        assert.equal(code, ErrorCode.UNKNOWN_SERVER_ERROR, `${name} v${version}`);
      }
    }
  }
  await broker.close();
});

test("FindCoordinator names this broker for a group it coordinates", async () => {
  const broker = await GroupBroker.open(new LogHarness(10), { hasOffsetsTopic: true });
  await broker.untilLoaded("found");
  await broker.untilLoaded("");
  for (let version = 0; version <= FIND_COORDINATOR_VERSIONS.maxVersion; version++) {
    const response = await broker.call(
      API.findCoordinator,
      version,
      findCoordinatorBody(version, "found"),
    );
    const found = version >= 4 ? at(response, "coordinators", 0) : response;
    assert.equal(at(found, "errorCode"), ErrorCode.NONE);
    assert.equal(at(found, "nodeId"), 1);
  }
  const join = await broker.call(API.joinGroup, 0, joinGroupBody(0, "", ""));
  assert.equal(at(join, "errorCode"), ErrorCode.INVALID_GROUP_ID);
  await broker.close();
});
