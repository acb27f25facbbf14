import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../common/index.js";
import { FetchSessionHandler, type SessionPartition } from "./fetch-session-handler.js";

const partition = (index: number, fetchOffset = 0): SessionPartition => ({
  topicName: "orders",
  topicId: "0123456789abcdef0123456789abcdef",
  partition: index,
  fetchOffset,
  logStartOffset: 0,
  partitionMaxBytes: 1024,
  currentLeaderEpoch: 1,
  lastFetchedEpoch: -1,
});

test("the first request is full; once the leader opens a session only changes are sent", () => {
  const handler = new FetchSessionHandler();
  const first = handler.build([partition(0), partition(1)]);
  assert.deepEqual(
    [first.isFull, first.sessionId, first.sessionEpoch, first.toSend.length],
    [true, 0, 0, 2],
  );
  assert.ok(handler.handleResponse(first, { errorCode: 0, sessionId: 7, partitionKeys: [] }));
  const unchanged = handler.build([partition(0), partition(1)]);
  assert.deepEqual([unchanged.isFull, unchanged.sessionId, unchanged.sessionEpoch], [false, 7, 1]);
  assert.deepEqual(unchanged.toSend, []);
  assert.ok(handler.handleResponse(unchanged, { errorCode: 0, sessionId: 7, partitionKeys: [] }));
  const moved = handler.build([partition(0, 5)]);
  assert.equal(moved.sessionEpoch, 2);
  assert.deepEqual(
    moved.toSend.map((sent) => [sent.partition, sent.fetchOffset]),
    [[0, 5]],
  );
  assert.deepEqual(
    moved.toForget.map((forgotten) => forgotten.partition),
    [1],
  );
});

test("a leader that opens no session keeps getting full requests", () => {
  const handler = new FetchSessionHandler();
  const first = handler.build([partition(0)]);
  handler.handleResponse(first, { errorCode: 0, sessionId: 0, partitionKeys: ["orders/0"] });
  const next = handler.build([partition(0)]);
  assert.deepEqual([next.isFull, next.sessionId, next.sessionEpoch], [true, 0, 0]);
});

test("a lost session starts over; an epoch error or a lost request closes it first", () => {
  const open = (): FetchSessionHandler => {
    const handler = new FetchSessionHandler();
    const first = handler.build([partition(0)]);
    handler.handleResponse(first, { errorCode: 0, sessionId: 7, partitionKeys: [] });
    return handler;
  };
  const lost = open();
  const incremental = lost.build([partition(0)]);
  const notFound = { errorCode: ErrorCode.FETCH_SESSION_ID_NOT_FOUND, sessionId: 0 };
  assert.equal(lost.handleResponse(incremental, { ...notFound, partitionKeys: [] }), false);
  assert.deepEqual(
    [lost.build([partition(0)]).sessionId, lost.build([partition(0)]).isFull],
    [0, true],
  );
  const badEpoch = open();
  const next = badEpoch.build([partition(0)]);
  const invalid = { errorCode: ErrorCode.INVALID_FETCH_SESSION_EPOCH, sessionId: 7 };
  assert.equal(badEpoch.handleResponse(next, { ...invalid, partitionKeys: [] }), false);
  // The old session's id with epoch 0 closes it at the leader and opens a new one.
  const reopen = badEpoch.build([partition(0)]);
  assert.deepEqual([reopen.isFull, reopen.sessionId, reopen.sessionEpoch], [true, 7, 0]);
  const dropped = open();
  dropped.handleError();
  assert.equal(dropped.build([partition(0)]).isFull, true);
});

test("a response naming a partition the session does not hold is not used", () => {
  const handler = new FetchSessionHandler();
  const first = handler.build([partition(0)]);
  const stray = { errorCode: 0, sessionId: 7, partitionKeys: ["orders/0", "orders/9"] };
  assert.equal(handler.handleResponse(first, stray), false);
  assert.equal(handler.build([partition(0)]).isFull, true);
});
