import assert from "node:assert/strict";
import { test } from "node:test";
import { ErrorCode } from "../../common/index.js";
import {
  notControllerRefusal,
  proposalRefusal,
  queueFullRefusal,
  refusalLeaderId,
} from "./refusals.js";

test("a refusal names the leader Raft knows, but not this node before it is active", () => {
  assert.equal(refusalLeaderId(2, { nodeId: 1, isActive: false }), 2);
  assert.equal(refusalLeaderId(null, { nodeId: 1, isActive: false }), null);
  assert.equal(refusalLeaderId(1, { nodeId: 1, isActive: false }), null);
  assert.equal(refusalLeaderId(1, { nodeId: 1, isActive: true }), 1);
});

test("NOT_CONTROLLER says which controller is active, if one is known", () => {
  const known = notControllerRefusal(3);
  assert.equal(known.errorCode, ErrorCode.NOT_CONTROLLER);
  assert.equal(known.leaderId, 3);
  assert.match(known.errorMessage, /node 3/);
  assert.match(notControllerRefusal(null).errorMessage, /not known/);
});

test("a full queue is refused as a timeout, which a client retries", () => {
  assert.equal(queueFullRefusal(1).errorCode, ErrorCode.REQUEST_TIMED_OUT);
});

test("each refused proposal has the Kafka error its client acts on", () => {
  const codeOf = (proposed: Parameters<typeof proposalRefusal>[0]) =>
    proposalRefusal(proposed, 1).errorCode;
  assert.equal(codeOf({ kind: "refused", reason: "throttled" }), ErrorCode.REQUEST_TIMED_OUT);
  assert.equal(codeOf({ kind: "refused", reason: "tooLarge" }), ErrorCode.INVALID_REQUEST);
  assert.equal(codeOf({ kind: "refused", reason: "notLeader" }), ErrorCode.NOT_CONTROLLER);
  const moved = proposalRefusal({ kind: "refused", reason: "offsetMismatch", nextOffset: 42 }, 1);
  assert.equal(moved.errorCode, ErrorCode.NOT_CONTROLLER, "the broker retries its registration");
  assert.match(moved.errorMessage, /offset 42/);
});
