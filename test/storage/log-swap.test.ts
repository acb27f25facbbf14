import { test } from "node:test";
import assert from "node:assert/strict";
import { LogSegment, type PartitionLog } from "../../src/storage/index.js";
import {
  LogHarness,
  headerOf,
  makeBatch,
  partitionDir,
  readAll,
  testConfig,
} from "./log-harness.js";

const config = testConfig({ segmentBytes: 300 });

/** A log of three or more segments of two-record batches, reopened after a clean close. */
async function threeSegments(seed: number): Promise<{ harness: LogHarness; log: PartitionLog }> {
  const harness = new LogHarness(seed);
  const first = await harness.open(config);
  for (let index = 0; index < 9; index++) {
    await harness.run(
      first.appendAsLeader(makeBatch({ count: 2, tag: `w${index}` }), { leaderEpoch: 0 }),
    );
  }
  assert.ok(first.segmentCount >= 3);
  await harness.run(first.close());
  return { harness, log: await harness.open(config, { recoveryPoint: 18 }) };
}

/** Writes `batches` (stamped) into a new segment of `log` in `stage`. */
async function segmentOf(
  harness: LogHarness,
  log: PartitionLog,
  stage: "cleaned" | "swap",
  batches: Uint8Array[],
): Promise<LogSegment> {
  const base = headerOf(batches[0] as Uint8Array).baseOffset;
  const segment = await harness.run(LogSegment.create(log.newSegmentOptions(base), stage));
  for (const bytes of batches) {
    const header = headerOf(bytes);
    const placed = { offsetInInput: 0, sizeInBytes: bytes.length, maxTimestamp: 1_000, ...header };
    await harness.run(segment.append([bytes], [placed], 0));
  }
  await harness.run(segment.flush({ withIndexes: true }));
  return segment;
}

test("replaceSegments swaps cleaned segments in and renames the old ones .deleted", async () => {
  const { harness, log } = await threeSegments(31);
  const before = await readAll(harness, log);
  const [oldest, second] = log.segments();
  assert.ok(oldest !== undefined && second !== undefined);
  // The "cleaned" segment keeps every other batch of the first two segments.
  const kept = before
    .filter((batch) => batch.baseOffset < second.nextOffset)
    .filter((_batch, index) => index % 2 === 0);
  const cleaned = await segmentOf(
    harness,
    log,
    "cleaned",
    kept.map((batch) => batch.bytes),
  );
  const isSwapped = await harness.run(
    log.replaceSegments([cleaned], [oldest.baseOffset, second.baseOffset]),
  );
  assert.equal(isSwapped, true);
  const swapped = log.segments()[0];
  assert.equal(swapped?.lastModifiedMs, second.lastModifiedMs, "retention's clock is kept");
  const after = await readAll(harness, log);
  const expected = [...kept, ...before.filter((batch) => batch.baseOffset >= second.nextOffset)];
  assert.deepEqual(
    after.map((batch) => batch.baseOffset),
    expected.map((batch) => batch.baseOffset),
  );
  const names = harness.fs.peekDirectory(partitionDir) ?? [];
  assert.ok(!names.some((name) => name.endsWith(".cleaned") || name.endsWith(".swap")));
  assert.ok(names.some((name) => name.endsWith(".log.deleted")));
  await harness.run(log.close());
  const reopened = await harness.open(config, { recoveryPoint: 18 });
  assert.deepEqual(
    (await readAll(harness, reopened)).map((batch) => batch.baseOffset),
    expected.map((batch) => batch.baseOffset),
  );
});

test("opening completes an interrupted swap and removes other leftovers", async () => {
  const { harness, log } = await threeSegments(32);
  const before = await readAll(harness, log);
  const [oldest, second, third] = log.segments();
  assert.ok(oldest !== undefined && second !== undefined && third !== undefined);
  const kept = before.filter(
    (batch) => batch.baseOffset < second.nextOffset && batch.baseOffset % 4 === 0,
  );
  const swap = await segmentOf(
    harness,
    log,
    "swap",
    kept.map((batch) => batch.bytes),
  );
  await harness.run(swap.close());
  const thirdBatches = before.filter(
    (batch) => batch.baseOffset >= third.baseOffset && batch.baseOffset < third.nextOffset,
  );
  const unfinished = await segmentOf(
    harness,
    log,
    "cleaned",
    thirdBatches.map((batch) => batch.bytes),
  );
  await harness.run(unfinished.close());
  await harness.run(log.close());
  const reopened = await harness.open(config, { recoveryPoint: 18 });
  assert.ok(reopened.recoveryReport.leftoverFileCount > 0);
  const expected = [...kept, ...before.filter((batch) => batch.baseOffset >= second.nextOffset)];
  assert.deepEqual(
    (await readAll(harness, reopened)).map((batch) => batch.baseOffset),
    expected.map((batch) => batch.baseOffset),
  );
  const names = harness.fs.peekDirectory(partitionDir) ?? [];
  assert.ok(!names.some((name) => /\.(cleaned|swap|deleted)$/.test(name)), names.join(" "));
});

test("replaceSegments refuses, deleting the new files, when the old segments changed", async () => {
  const { harness, log } = await threeSegments(34);
  const before = await readAll(harness, log);
  const [oldest, second] = log.segments();
  assert.ok(oldest !== undefined && second !== undefined);
  const group = before.filter((batch) => batch.baseOffset < second.nextOffset);
  const cleaned = await segmentOf(
    harness,
    log,
    "cleaned",
    group.map((batch) => batch.bytes),
  );
  // A follower's truncation into the second segment makes it the active one.
  await harness.run(log.truncateTo(second.baseOffset + 2));
  const isSwapped = await harness.run(
    log.replaceSegments([cleaned], [oldest.baseOffset, second.baseOffset]),
  );
  assert.equal(isSwapped, false);
  const names = harness.fs.peekDirectory(partitionDir) ?? [];
  assert.ok(!names.some((name) => /\.(cleaned|swap)$/.test(name)), names.join(" "));
  assert.deepEqual(
    (await readAll(harness, log)).map((batch) => batch.baseOffset),
    group.filter((batch) => batch.baseOffset < second.baseOffset + 2).map((b) => b.baseOffset),
  );
});

test("an fsync that fails with EIO fails the appends waiting for it", async () => {
  const harness = new LogHarness(33);
  const log = await harness.open(testConfig({ flushMessages: 1 }));
  await harness.run(log.appendAsLeader(makeBatch({ count: 1, tag: "ok" }), { leaderEpoch: 0 }));
  harness.fs.injectFault({ code: "EIO", operations: ["sync"], path: partitionDir });
  await assert.rejects(
    harness.run(log.appendAsLeader(makeBatch({ count: 1, tag: "lost" }), { leaderEpoch: 0 })),
    /EIO/,
  );
  harness.fs.clearFaults();
  await assert.rejects(
    harness.run(log.appendAsLeader(makeBatch({ count: 1, tag: "later" }), { leaderEpoch: 0 })),
    /EIO/,
  );
  assert.equal(log.recoveryPoint, 1, "nothing past the failure counts as flushed");
});
