import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ErrorCode,
  allErrorCodes,
  errorCodeInfo,
  errorName,
  isKnownErrorCode,
  isRetriable,
} from "./error-codes.js";

test("well-known codes carry Kafka's numbers", () => {
  assert.equal(ErrorCode.NONE, 0);
  assert.equal(ErrorCode.UNKNOWN_SERVER_ERROR, -1);
  assert.equal(ErrorCode.NOT_LEADER_OR_FOLLOWER, 6);
  assert.equal(ErrorCode.UNSUPPORTED_VERSION, 35);
  assert.equal(ErrorCode.NOT_CONTROLLER, 41);
  assert.equal(ErrorCode.FENCED_LEADER_EPOCH, 74);
  assert.equal(ErrorCode.UNKNOWN_TOPIC_ID, 100);
  assert.equal(ErrorCode.SHARE_SESSION_LIMIT_REACHED, 133);
});

test("the table covers every code from -1 to 133 once, with no gaps", () => {
  const codes = allErrorCodes().map((info) => info.code);
  assert.equal(codes.length, 135);
  codes.forEach((code, index) => assert.equal(code, index - 1));
  assert.equal(new Set(Object.values(ErrorCode)).size, Object.keys(ErrorCode).length);
});

test("errorName maps codes to names and back", () => {
  for (const [name, code] of Object.entries(ErrorCode)) {
    assert.equal(errorName(code), name);
    assert.equal(errorCodeInfo(code)?.name, name);
  }
  assert.equal(errorName(35), "UNSUPPORTED_VERSION");
  assert.equal(errorName(9999), "UNKNOWN_ERROR_CODE(9999)");
  assert.equal(errorName(-2), "UNKNOWN_ERROR_CODE(-2)");
});

test("retriable codes are the ones clients retry", () => {
  for (const name of [
    "NOT_LEADER_OR_FOLLOWER",
    "LEADER_NOT_AVAILABLE",
    "UNKNOWN_TOPIC_OR_PARTITION",
    "REQUEST_TIMED_OUT",
    "NOT_ENOUGH_REPLICAS",
    "NOT_COORDINATOR",
    "FENCED_LEADER_EPOCH",
    "NOT_CONTROLLER",
    "KAFKA_STORAGE_ERROR",
  ] as const) {
    assert.equal(isRetriable(ErrorCode[name]), true, name);
  }
  for (const name of [
    "NONE",
    "UNKNOWN_SERVER_ERROR",
    "UNSUPPORTED_VERSION",
    "OFFSET_OUT_OF_RANGE",
    "MESSAGE_TOO_LARGE",
    "TOPIC_AUTHORIZATION_FAILED",
    "PRODUCER_FENCED",
    "INVALID_REQUEST",
  ] as const) {
    assert.equal(isRetriable(ErrorCode[name]), false, name);
  }
  assert.equal(isRetriable(12345), false);
});

test("every row has a description and unknown codes are not known", () => {
  for (const info of allErrorCodes()) {
    assert.ok(info.description.length > 0, info.name);
    assert.equal(isKnownErrorCode(info.code), true);
  }
  assert.equal(isKnownErrorCode(134), false);
  assert.equal(errorCodeInfo(-3), undefined);
});
