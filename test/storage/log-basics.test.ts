import { test } from "node:test";
import assert from "node:assert/strict";
import { LogAppendError } from "../../src/storage/index.js";
import { LogHarness, concat, headerOf, makeBatch, readAll, testConfig } from "./log-harness.js";

test("a leader append assigns offsets from the log end offset and reads back whole", async () => {
  const harness = new LogHarness(1);
  const log = await harness.open(testConfig());
  const first = await harness.run(
    log.appendAsLeader(makeBatch({ count: 3, tag: "a" }), { leaderEpoch: 5 }),
  );
  assert.deepEqual([first.firstOffset, first.lastOffset, first.batchCount], [0, 2, 1]);
  const input = concat([
    makeBatch({ count: 2, tag: "b", timestamp: 5_000 }),
    makeBatch({ count: 1, tag: "c" }),
  ]);
  const second = await harness.run(log.appendAsLeader(input, { leaderEpoch: 5 }));
  assert.deepEqual(
    [second.firstOffset, second.lastOffset, second.maxTimestamp, second.offsetOfMaxTimestamp],
    [3, 5, 5_001, 4],
  );
  assert.equal(log.logEndOffset, 6);
  const batches = await readAll(harness, log);
  assert.deepEqual(
    batches.map((batch) => [batch.baseOffset, batch.lastOffset]),
    [
      [0, 2],
      [3, 4],
      [5, 5],
    ],
  );
  assert.ok(batches.every((batch) => headerOf(batch.bytes).partitionLeaderEpoch === 5));
  assert.deepEqual(log.endOffsetForEpoch(5), { epoch: 5, endOffset: 6 });
});

test("reads stop at maxOffset and maxBytes in whole batches; minOneBatch gives one", async () => {
  const harness = new LogHarness(2);
  const log = await harness.open(testConfig({ segmentBytes: 400 }));
  const sizes: number[] = [];
  for (let index = 0; index < 8; index++) {
    const batch = makeBatch({ count: 2, tag: `r${index}` });
    sizes.push(batch.length);
    await harness.run(log.appendAsLeader(batch, { leaderEpoch: 0 }));
  }
  assert.ok(log.segmentCount > 1, "small segments roll");
  const capped = await harness.run(
    log.read({ fromOffset: 3, maxBytes: 10_000, maxOffset: 9, minOneBatch: false }),
  );
  assert.equal(capped.kind, "records");
  if (capped.kind !== "records") return;
  assert.equal(capped.nextOffset, 8);
  assert.equal(capped.sizeInBytes, (sizes[1] ?? 0) * 3);
  const tiny = await harness.run(
    log.read({ fromOffset: 0, maxBytes: 1, maxOffset: 100, minOneBatch: true }),
  );
  assert.equal(tiny.kind === "records" && tiny.sizeInBytes, sizes[0]);
  const none = await harness.run(
    log.read({ fromOffset: 0, maxBytes: 1, maxOffset: 100, minOneBatch: false }),
  );
  assert.equal(none.kind === "records" && none.slices.length, 0);
  const outOfRange = await harness.run(
    log.read({ fromOffset: 17, maxBytes: 1, maxOffset: 100, minOneBatch: false }),
  );
  assert.equal(outOfRange.kind, "offsetOutOfRange");
});

test("a clean close and open keeps every batch, the indexes and the epochs", async () => {
  const harness = new LogHarness(3);
  const config = testConfig({ segmentBytes: 1_000, indexIntervalBytes: 100 });
  const log = await harness.open(config);
  for (let index = 0; index < 20; index++) {
    await harness.run(
      log.appendAsLeader(makeBatch({ count: 3, tag: `x${index}`, timestamp: 1_000 * index }), {
        leaderEpoch: index < 10 ? 1 : 2,
      }),
    );
  }
  const before = await readAll(harness, log);
  await harness.run(log.close());
  const reopened = await harness.open(config, { recoveryPoint: 60, hadCleanShutdown: true });
  assert.equal(reopened.recoveryReport.recoveredSegments.length, 0);
  assert.equal(reopened.recoveryReport.rebuiltIndexCount, 0);
  assert.deepEqual(await readAll(harness, reopened), before);
  assert.deepEqual(reopened.endOffsetForEpoch(1), { epoch: 1, endOffset: 30 });
  assert.deepEqual(reopened.endOffsetForEpoch(2), { epoch: 2, endOffset: 60 });
  const found = await harness.run(reopened.fetchOffsetByTimestamp(12_001));
  assert.deepEqual(found, { offset: 37, timestamp: 12_001, leaderEpoch: 2 });
});

test("a misframed input is refused with nothing written", async () => {
  const harness = new LogHarness(4);
  const log = await harness.open(testConfig({ maxMessageBytes: 200 }));
  const good = makeBatch({ count: 1, tag: "ok" });
  const torn = concat([good, makeBatch({ count: 1, tag: "torn" }).subarray(0, 30)]);
  await assert.rejects(harness.run(log.appendAsLeader(torn, { leaderEpoch: 0 })), LogAppendError);
  const large = makeBatch({ count: 1, tag: "big", valueBytes: 500 });
  await assert.rejects(
    harness.run(log.appendAsLeader(large, { leaderEpoch: 0 })),
    (error: unknown) => error instanceof LogAppendError && error.refusal.kind === "batchTooLarge",
  );
  assert.equal(log.logEndOffset, 0);
  assert.equal(log.size, 0);
});

test("LogAppendTime stamps the log's time, and MAX_TIMESTAMP finds the newest record", async () => {
  const harness = new LogHarness(5);
  const log = await harness.open(testConfig({ messageTimestampType: "LogAppendTime" }));
  const nowMs = harness.node.clock.nowMs();
  const result = await harness.run(
    log.appendAsLeader(makeBatch({ count: 3, tag: "t" }), { leaderEpoch: 2 }),
  );
  assert.deepEqual([result.logAppendTime, result.maxTimestamp], [nowMs, nowMs]);
  const newest = await harness.run(log.fetchOffsetByTimestamp(-3));
  assert.deepEqual(newest, { offset: 0, timestamp: nowMs, leaderEpoch: 2 });
  assert.deepEqual(await harness.run(log.fetchOffsetByTimestamp(-1)), {
    offset: 3,
    timestamp: -1,
    leaderEpoch: 2,
  });
  assert.equal(await harness.run(log.fetchOffsetByTimestamp(nowMs + 1)), undefined);
});

test("a follower's batches below the log end offset are refused", async () => {
  const harness = new LogHarness(6);
  const log = await harness.open(testConfig());
  await harness.run(
    log.appendAsFollower(makeBatch({ count: 4, tag: "f", baseOffset: 0, epoch: 1 })),
  );
  const stale = makeBatch({ count: 1, tag: "g", baseOffset: 2, epoch: 1 });
  await assert.rejects(
    harness.run(log.appendAsFollower(stale)),
    (error: unknown) =>
      error instanceof LogAppendError && error.refusal.kind === "unexpectedAppendOffset",
  );
  assert.equal(log.logEndOffset, 4);
});
