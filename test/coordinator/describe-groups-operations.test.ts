import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { JOIN_GROUP_VERSIONS } from "../../src/broker/apis/groups/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";
import { API } from "./group-bodies.js";
import { joinStep, roundOf, syncStep } from "./group-lifecycle.js";

/** READ, DELETE, DESCRIBE, DESCRIBE_CONFIGS and ALTER_CONFIGS: Kafka 4's group operations. */
const GROUP_OPERATIONS = 3400;
const OMITTED = -2147483648;

test("DescribeGroups v3+ gives a group's operations only when asked", async () => {
  const broker = await GroupBroker.open(new LogHarness(11), { hasOffsetsTopic: true });
  await broker.untilLoaded("described");
  const step = roundOf(broker, "described", JOIN_GROUP_VERSIONS.maxVersion);
  await syncStep(step, await joinStep(step));
  for (const version of [3, 4, 5]) {
    const groups = ["described", "never-seen"];
    const asked = await broker.call(API.describeGroups, version, {
      groups,
      includeAuthorizedOperations: true,
    });
    assert.equal(at(asked, "groups", 0, "errorCode"), ErrorCode.NONE);
    assert.equal(at(asked, "groups", 0, "authorizedOperations"), GROUP_OPERATIONS);
    assert.equal(at(asked, "groups", 1, "groupState"), "Dead");
    assert.equal(at(asked, "groups", 1, "authorizedOperations"), GROUP_OPERATIONS);
    const quiet = await broker.call(API.describeGroups, version, {
      groups,
      includeAuthorizedOperations: false,
    });
    assert.equal(at(quiet, "groups", 0, "authorizedOperations"), OMITTED);
  }
  await broker.close();
});
