import { test } from "node:test";
import assert from "node:assert/strict";
import { LogHarness, makeBatch, partitionDir, readAll, testConfig } from "./log-harness.js";

test("retention.ms deletes segments whose newest record is older than it", async () => {
  const harness = new LogHarness(11);
  const config = testConfig({ segmentBytes: 300, retentionMs: 10_000, fileDeleteDelayMs: 1_000 });
  const log = await harness.open(config);
  for (let index = 0; index < 10; index++) {
    await harness.run(
      log.appendAsLeader(makeBatch({ count: 2, tag: `t${index}`, timestamp: index * 5_000 }), {
        leaderEpoch: 0,
      }),
    );
  }
  const segments = log.segments();
  assert.ok(segments.length >= 4);
  const nowMs = 30_000;
  const expected = segments.filter(
    (segment, index) => index < segments.length - 1 && nowMs - segment.largestTimestamp > 10_000,
  );
  const deleted = await harness.run(log.deleteOldSegments(nowMs, log.logEndOffset));
  assert.equal(deleted, expected.length);
  assert.equal(log.logStartOffset, log.segments()[0]?.baseOffset);
  assert.ok(
    (harness.fs.peekDirectory(partitionDir) ?? []).some((name) => name.endsWith(".log.deleted")),
  );
  assert.equal(
    await harness.run(log.deleteExpiredFiles(harness.node.clock.nowMs() + 1_000)),
    deleted,
  );
  assert.ok(
    !(harness.fs.peekDirectory(partitionDir) ?? []).some((name) => name.endsWith(".deleted")),
  );
  const read = await harness.run(
    log.read({ fromOffset: 0, maxBytes: 100, maxOffset: 100, minOneBatch: true }),
  );
  assert.equal(read.kind, "offsetOutOfRange");
});

test("retention.bytes trims the log but never passes the high watermark", async () => {
  const harness = new LogHarness(12);
  const config = testConfig({ segmentBytes: 300, retentionBytes: 300 });
  const log = await harness.open(config);
  for (let index = 0; index < 12; index++) {
    await harness.run(
      log.appendAsLeader(makeBatch({ count: 2, tag: `s${index}` }), { leaderEpoch: 0 }),
    );
  }
  const highWatermark = (log.segments()[2]?.baseOffset ?? 0) + 1;
  assert.equal(
    await harness.run(log.deleteOldSegments(0, highWatermark)),
    2,
    "only segments wholly below the high watermark go",
  );
  assert.ok(log.size > 300);
  await harness.run(log.deleteOldSegments(0, log.logEndOffset));
  const oldest = log.segments()[0]?.sizeInBytes ?? 0;
  assert.ok(log.size >= 300, `size ${log.size} stays at or above retention.bytes`);
  assert.ok(log.size - oldest < 300, "deleting one more segment would go below it");
});

test("DeleteRecords moves the log start, deletes segments and trims epochs", async () => {
  const harness = new LogHarness(13);
  const log = await harness.open(testConfig({ segmentBytes: 300 }));
  for (let index = 0; index < 10; index++) {
    await harness.run(
      log.appendAsLeader(makeBatch({ count: 2, tag: `d${index}` }), {
        leaderEpoch: index < 5 ? 3 : 4,
      }),
    );
  }
  const before = log.segmentCount;
  assert.equal(await harness.run(log.maybeIncrementLogStartOffset(13)), true);
  assert.equal(log.logStartOffset, 13);
  assert.ok(log.segmentCount < before);
  assert.ok((log.segments()[0]?.baseOffset ?? 99) <= 13);
  assert.equal(await harness.run(log.maybeIncrementLogStartOffset(5)), false);
  assert.deepEqual(
    log.endOffsetForEpoch(3),
    { epoch: 3, endOffset: 13 },
    "epoch 3 is cut at the start",
  );
  const found = await harness.run(log.fetchOffsetByTimestamp(-2));
  assert.deepEqual(found, { offset: 13, timestamp: -1, leaderEpoch: 4 });
});

test("segment.ms rolls a segment once its first batch is old enough", async () => {
  const harness = new LogHarness(14);
  const log = await harness.open(testConfig({ segmentMs: 60_000 }));
  await harness.run(
    log.appendAsLeader(makeBatch({ count: 1, tag: "a", timestamp: 1_000 }), { leaderEpoch: 0 }),
  );
  await harness.run(
    log.appendAsLeader(makeBatch({ count: 1, tag: "b", timestamp: 50_000 }), { leaderEpoch: 0 }),
  );
  assert.equal(log.segmentCount, 1);
  await harness.run(
    log.appendAsLeader(makeBatch({ count: 1, tag: "c", timestamp: 61_001 }), { leaderEpoch: 0 }),
  );
  assert.equal(log.segmentCount, 2);
  assert.equal(log.segments()[1]?.baseOffset, 2);
});

test("endOffsetForEpoch follows appends of several epochs and truncations", async () => {
  const harness = new LogHarness(15);
  const log = await harness.open(testConfig({ segmentBytes: 400 }));
  for (const [epoch, count] of [
    [1, 3],
    [2, 4],
    [4, 2],
  ] as const) {
    await harness.run(
      log.appendAsLeader(makeBatch({ count, tag: `e${epoch}` }), { leaderEpoch: epoch }),
    );
  }
  assert.deepEqual(log.endOffsetForEpoch(1), { epoch: 1, endOffset: 3 });
  assert.deepEqual(log.endOffsetForEpoch(3), { epoch: 2, endOffset: 7 });
  assert.deepEqual(log.endOffsetForEpoch(4), { epoch: 4, endOffset: 9 });
  assert.equal(await harness.run(log.truncateTo(5)), true);
  assert.equal(log.logEndOffset, 3, "the batch holding offset 5 goes whole");
  assert.deepEqual(log.endOffsetForEpoch(2), { epoch: -1, endOffset: -1 });
  assert.deepEqual(log.endOffsetForEpoch(1), { epoch: 1, endOffset: 3 });
  const follower = makeBatch({ count: 2, tag: "f", baseOffset: 3, epoch: 5 });
  await harness.run(log.appendAsFollower(follower));
  assert.deepEqual(log.endOffsetForEpoch(5), { epoch: 5, endOffset: 5 });
  assert.deepEqual(
    (await readAll(harness, log)).map((batch) => batch.baseOffset),
    [0, 3],
  );
  await harness.run(log.truncateFullyAndStartAt(100));
  assert.deepEqual([log.logStartOffset, log.logEndOffset, log.segmentCount], [100, 100, 1]);
  assert.deepEqual(log.endOffsetForEpoch(5), { epoch: -1, endOffset: -1 });
});
