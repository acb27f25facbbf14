import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { encodeBatch } from "../../src/protocol/index.js";
import { CleanerCheckpoint, LogCleaner, type PartitionLog } from "../../src/storage/index.js";
import {
  appendWrites,
  cleanerOf,
  compactConfig,
  compactedLog,
  latestPerKey,
  logDir,
  readRecords,
  recordsOf,
  type Write,
} from "./cleaner-harness.js";
import { LogHarness, readAll } from "./log-harness.js";

const write = fc.tuple(
  fc.constantFrom("a", "b", "c", "d", "e", "f"),
  fc.option(fc.string({ maxLength: 20 }), { freq: 6 }),
);

test("compaction keeps the latest value per key, offsets unchanged, active untouched", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(write, { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 1_000_000 }),
      async (writes, passes, seed) => {
        const harness = new LogHarness(seed);
        const log = await compactedLog(harness, writes);
        const before = await readRecords(harness, log);
        const active = log.segments().at(-1);
        const cleaner = cleanerOf(harness, () => log);
        let endOffset = 0;
        for (let pass = 0; pass < passes; pass++) {
          const result = await harness.run(cleaner.cleanOnce(2000));
          if (result.cleaned !== undefined) endOffset = result.cleaned.endOffset;
        }
        assert.ok(endOffset <= (active?.baseOffset ?? 0), "the active segment is never cleaned");
        assert.deepEqual(await readRecords(harness, log), latestPerKey(before, endOffset));
        assert.deepEqual(log.segments().at(-1), active);
        const checkpoint = await harness.run(
          new CleanerCheckpoint(harness.fs, logDir).read(log.topicPartition),
        );
        assert.equal(checkpoint, log.segments().length > 1 ? endOffset : undefined);
        // What the swaps left on disk is what a restart after a crash serves.
        harness.crash();
        const reopened = await harness.open(compactConfig, { recoveryPoint: 0 });
        assert.deepEqual(await readRecords(harness, reopened), latestPerKey(before, endOffset));
      },
    ),
    { seed: 20240611, numRuns: 40 },
  );
});

test("a full offset map cleans in several passes", async () => {
  const harness = new LogHarness(5);
  const writes = Array.from({ length: 40 }, (_, index): Write => [
    `key-${index % 12}`,
    `v${index}`,
  ]);
  const log = await compactedLog(harness, writes);
  const before = await readRecords(harness, log);
  const config = { dedupeBufferBytes: 24 * 5, dedupeBufferLoadFactor: 1, ioBufferBytes: 512 };
  const cleaner = cleanerOf(harness, () => log, config);
  const first = await harness.run(cleaner.cleanOnce(2000));
  assert.equal(first.cleaned?.isComplete, false);
  let passes = 1;
  let last = first;
  while (last.cleaned !== undefined && !last.cleaned.isComplete && passes < 20) {
    last = await harness.run(cleaner.cleanOnce(2000));
    passes++;
  }
  assert.ok(passes > 1);
  const endOffset = last.cleaned?.endOffset ?? 0;
  assert.equal(endOffset, log.segments().at(-1)?.baseOffset);
  assert.deepEqual(await readRecords(harness, log), latestPerKey(before, endOffset));
});

test("tombstones go only after delete.retention.ms from the pass that saw them", async () => {
  const harness = new LogHarness(6);
  const writes: Write[] = [
    ["a", "1"],
    ["b", "2"],
    ["a", null],
  ];
  for (let index = 0; index < 12; index++) writes.push([`filler-${index}`, "x".repeat(40)]);
  const log = await compactedLog(harness, writes);
  const cleaner = cleanerOf(harness, () => log);
  const recordsOfKey = async (key: string) =>
    (await readRecords(harness, log)).filter((record) => record.key === key);
  await harness.run(cleaner.cleanOnce(5000));
  assert.deepEqual(await recordsOfKey("a"), [{ offset: 2, key: "a", value: null }]);
  // The first pass stamped the horizon 5000 + 1000; a pass before it keeps the tombstone.
  await harness.run(
    appendWrites(
      log,
      [
        ["c", "y".repeat(300)],
        ["d", "z"],
      ],
      5100,
    ),
  );
  await harness.run(cleaner.cleanOnce(5999));
  assert.deepEqual(await recordsOfKey("a"), [{ offset: 2, key: "a", value: null }]);
  await harness.run(
    appendWrites(
      log,
      [
        ["e", "w".repeat(300)],
        ["f", "z"],
      ],
      6100,
    ),
  );
  await harness.run(cleaner.cleanOnce(6000));
  assert.deepEqual(await recordsOfKey("a"), []);
  assert.deepEqual(await recordsOfKey("b"), [{ offset: 1, key: "b", value: "2" }]);
});

const swapWrites = Array.from({ length: 30 }, (_, index): Write => [`k${index % 4}`, `v${index}`]);

/** Fewer microtask turns per event: the crash test replays the pass once per event. */
const quickScheduling = { microtaskTurns: 16 };

/**
 * Cleans the log once, recording the records the log serves after each group's swap; resolves
 * to those states (the first is the log before cleaning) and the events the pass took.
 */
async function referencePass(seed: number): Promise<{ states: string[]; eventCount: number }> {
  const harness = new LogHarness(seed, {}, quickScheduling);
  const log = await compactedLog(harness, swapWrites);
  const states = [JSON.stringify(await readRecords(harness, log))];
  const served = (batches: { bytes: Uint8Array }[]) => JSON.stringify(recordsOf(batches));
  const swapping: PartitionLog = Object.create(log) as PartitionLog;
  swapping.replaceSegments = async (newSegments, oldBaseOffsets) => {
    const isSwapped = await log.replaceSegments(newSegments, oldBaseOffsets);
    states.push(served(await readAllWithin(log)));
    return isSwapped;
  };
  const eventsBefore = harness.scheduler.eventCount;
  await harness.run(cleanerOf(harness, () => swapping).cleanOnce(2000));
  return { states, eventCount: harness.scheduler.eventCount - eventsBefore };
}

/** readAll, for use inside an operation the harness already drives. */
async function readAllWithin(log: PartitionLog): Promise<{ bytes: Uint8Array }[]> {
  const result = await log.read({
    fromOffset: log.logStartOffset,
    maxBytes: 1 << 30,
    maxOffset: Number.MAX_SAFE_INTEGER,
    minOneBatch: true,
  });
  assert.ok(result.kind === "records");
  return Promise.all(result.slices.map(async (slice) => ({ bytes: await log.readBytes(slice) })));
}

test("a crash at any step of cleaning leaves each group old or new, never a mix", async () => {
  const seed = 41;
  const { states, eventCount } = await referencePass(seed);
  assert.ok(states.length > 2, "the test needs several groups");
  const seen = new Set<number>();
  for (let step = 0; step <= eventCount; step++) {
    const harness = new LogHarness(seed, {}, quickScheduling);
    const log = await compactedLog(harness, swapWrites);
    cleanerOf(harness, () => log)
      .cleanOnce(2000)
      .catch(() => undefined);
    for (let event = 0; event < step; event++) await harness.scheduler.step();
    harness.crash();
    const reopened = await harness.open(compactConfig, {
      recoveryPoint: swapWrites.length,
      hadCleanShutdown: false,
    });
    const recovered = JSON.stringify(recordsOf(await readAll(harness, reopened)));
    const state = states.indexOf(recovered);
    assert.ok(state >= 0, `a crash after ${step} events left a mix: ${recovered}`);
    seen.add(state);
  }
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    states.map((_, index) => index),
  );
});

test("a zstd batch that inflates past 8 MiB is compacted like any other", async () => {
  const harness = new LogHarness(8);
  const config = { ...compactConfig, segmentBytes: 2048 };
  const log = await harness.open(config);
  const bigRecords = ["a", "b", "c"].map((key, index) => ({
    timestamp: 1000 + index,
    key: new TextEncoder().encode(key),
    value: new Uint8Array(3 * 1024 * 1024).fill(index + 1),
  }));
  const big = encodeBatch({
    ...{ baseOffset: 0, partitionLeaderEpoch: 0, compression: "zstd" as const },
    ...{ timestampType: "createTime" as const, isTransactional: false, isControl: false },
    ...{ producerId: -1, producerEpoch: -1, baseSequence: -1, records: bigRecords },
  });
  const newer: Write[] = [
    ["a", "1"],
    ["b", "2"],
    ["c", "3"],
  ];
  const filler: Write[] = Array.from({ length: 40 }, (_, index) => ["z", String(index)]);
  await harness.run(
    log
      .appendAsLeader(big, { leaderEpoch: 0 })
      .then(() => appendWrites(log, [...newer, ...filler], 2000))
      .then(() => log.flush()),
  );
  assert.ok(log.segments().length > 1, "the big batch's segment is not the active one");
  const cleaner = new LogCleaner({
    fileSystem: harness.fs,
    logger: harness.logger,
    logs: () => [{ log, logDir, config, highWatermark: log.logEndOffset }],
  });
  const result = await harness.run(cleaner.cleanOnce(3000));
  assert.equal(result.markedUncleanable, undefined);
  assert.ok(result.cleaned !== undefined, "the log was cleaned");
  const offsets = (await readRecords(harness, log)).map((record) => record.offset);
  assert.ok(!offsets.includes(0) && !offsets.includes(2), "the big batch's records are gone");
});

test("the pass's last batch stays, emptied, so that the offset it ends at is kept", async () => {
  // Keyless records in a compacted log (written while the topic was cleanup.policy=delete) are
  // dropped, but the batch ending at the first uncleanable offset is kept without records.
  const harness = new LogHarness(9);
  const log = await harness.open(compactConfig);
  const keyless = encodeBatch({
    ...{ baseOffset: 0, partitionLeaderEpoch: 0, compression: "none" as const },
    ...{ timestampType: "createTime" as const, isTransactional: false, isControl: false },
    ...{ producerId: -1, producerEpoch: -1, baseSequence: -1 },
    records: [1, 2, 3].map((index) => ({ timestamp: 1000 + index, key: null, value: null })),
  });
  await harness.run(
    appendWrites(log, [
      ["a", "1"],
      ["b", "2"],
    ])
      .then(() => log.appendAsLeader(keyless, { leaderEpoch: 0 }))
      .then(() => log.appendAsLeader(keyless, { leaderEpoch: 0 }))
      .then(() => log.roll())
      .then(() => log.flush()),
  );
  assert.equal(log.segments().at(-1)?.baseOffset, 8);
  const result = await harness.run(cleanerOf(harness, () => log).cleanOnce(2000));
  assert.equal(result.cleaned?.endOffset, 8);
  const batches = (await readAll(harness, log)).map(({ baseOffset, lastOffset, bytes }) => ({
    ...{ baseOffset, lastOffset },
    records: recordsOf([{ bytes }]).length,
  }));
  assert.deepEqual(batches, [
    { baseOffset: 0, lastOffset: 0, records: 1 },
    { baseOffset: 1, lastOffset: 1, records: 1 },
    { baseOffset: 5, lastOffset: 7, records: 0 },
  ]);
});
