import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Logger } from "../../ports/index.js";
import { MemoryFileSystem } from "../memory-file-system.test-support.js";
import type { LogConfig } from "../log/log-config.js";
import { handleLeftoverFiles } from "../log/leftover-files.driver.js";
import { LogCleaner } from "./log-cleaner.driver.js";
import { CleanerCheckpoint } from "./cleaner-checkpoint.driver.js";
import { TestLog, readLiveRecords, type SeenRecord } from "./test-log.test-support.js";

const silent: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
};

const LOG_DIR = "/data";
const DIR = "/data/compacted-0";
const compactConfig: Partial<LogConfig> = {
  segmentBytes: 400,
  cleanupPolicy: { delete: false, compact: true },
  minCleanableDirtyRatio: 0,
  deleteRetentionMs: 1000,
  indexIntervalBytes: 100,
};

const encode = (value: string | null) => (value === null ? null : new TextEncoder().encode(value));

async function logWith(
  fileSystem: MemoryFileSystem,
  writes: readonly (readonly [string, string | null])[],
) {
  const log = await TestLog.create(fileSystem, DIR, compactConfig);
  for (const [index, [key, value]] of writes.entries()) {
    await log.append(
      [{ timestamp: 1000 + index, key: encode(key), value: encode(value) }],
      1000 + index,
    );
  }
  return log;
}

function cleanerFor(fileSystem: MemoryFileSystem, log: TestLog) {
  return new LogCleaner({
    fileSystem,
    logger: silent,
    logs: () => [{ log, logDir: LOG_DIR, config: log.config, highWatermark: log.logEndOffset }],
  });
}

/** The model: below `endOffset` only the latest record of each key, above it everything. */
function latestPerKey(records: readonly SeenRecord[], endOffset: number): SeenRecord[] {
  const latest = new Map<string | null, number>();
  for (const record of records)
    if (record.offset < endOffset) latest.set(record.key, record.offset);
  return records.filter(
    (record) => record.offset >= endOffset || latest.get(record.key) === record.offset,
  );
}

test("compaction keeps exactly the latest record per key, with unchanged offsets", async () => {
  const write = fc.tuple(
    fc.constantFrom("a", "b", "c", "d", "e", "f"),
    fc.option(fc.string({ maxLength: 20 }), { freq: 6 }),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(write, { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 3 }),
      async (writes, passes) => {
        const fileSystem = new MemoryFileSystem();
        const log = await logWith(fileSystem, writes);
        const before = await readLiveRecords(fileSystem, DIR);
        const active = log.active.info();
        const cleaner = cleanerFor(fileSystem, log);
        let endOffset = 0;
        for (let pass = 0; pass < passes; pass++) {
          const result = await cleaner.cleanOnce(2000);
          if (result.cleaned !== undefined) endOffset = result.cleaned.endOffset;
        }
        assert.ok(endOffset <= active.baseOffset, "the active segment is never cleaned");
        const after = await readLiveRecords(fileSystem, DIR);
        assert.deepEqual(after, latestPerKey(before, endOffset));
        assert.deepEqual(log.active.info(), active);
        const checkpoint = await new CleanerCheckpoint(fileSystem, LOG_DIR).read(
          log.topicPartition,
        );
        assert.equal(checkpoint, log.segments().length > 1 ? endOffset : undefined);
      },
    ),
    { seed: 20240611, numRuns: 40 },
  );
});

test("a full offset map cleans in several passes", async () => {
  const fileSystem = new MemoryFileSystem();
  const writes = Array.from(
    { length: 40 },
    (_, index) => [`key-${index % 12}`, `v${index}`] as const,
  );
  const log = await logWith(fileSystem, writes);
  const before = await readLiveRecords(fileSystem, DIR);
  const cleaner = new LogCleaner({
    fileSystem,
    logger: silent,
    config: { dedupeBufferBytes: 24 * 5, dedupeBufferLoadFactor: 1, ioBufferBytes: 512 },
    logs: () => [{ log, logDir: LOG_DIR, config: log.config, highWatermark: log.logEndOffset }],
  });
  const first = await cleaner.cleanOnce(2000);
  assert.equal(first.cleaned?.isComplete, false);
  let passes = 1;
  let last = first;
  while (last.cleaned !== undefined && !last.cleaned.isComplete && passes < 20) {
    last = await cleaner.cleanOnce(2000);
    passes++;
  }
  assert.ok(passes > 1);
  const endOffset = last.cleaned?.endOffset ?? 0;
  assert.equal(endOffset, log.active.baseOffset);
  assert.deepEqual(await readLiveRecords(fileSystem, DIR), latestPerKey(before, endOffset));
});

test("tombstones go only after delete.retention.ms from the pass that saw them", async () => {
  const fileSystem = new MemoryFileSystem();
  const writes: [string, string | null][] = [
    ["a", "1"],
    ["b", "2"],
    ["a", null],
  ];
  for (let index = 0; index < 12; index++) writes.push([`filler-${index}`, "x".repeat(40)]);
  const log = await logWith(fileSystem, writes);
  const cleaner = cleanerFor(fileSystem, log);
  const keysAt = async () =>
    (await readLiveRecords(fileSystem, DIR)).filter((record) => record.key === "a");
  await cleaner.cleanOnce(5000);
  assert.deepEqual(await keysAt(), [{ offset: 2, key: "a", value: null }]);
  // The first pass stamped the horizon 5000 + 1000; a pass before it keeps the tombstone.
  await log.append([{ timestamp: 5100, key: encode("c"), value: encode("y".repeat(300)) }], 5100);
  await log.append([{ timestamp: 5101, key: encode("d"), value: encode("z") }], 5101);
  await cleaner.cleanOnce(5999);
  assert.deepEqual(await keysAt(), [{ offset: 2, key: "a", value: null }]);
  await log.append([{ timestamp: 6100, key: encode("e"), value: encode("w".repeat(300)) }], 6100);
  await log.append([{ timestamp: 6101, key: encode("f"), value: encode("z") }], 6101);
  await cleaner.cleanOnce(6000);
  assert.deepEqual(await keysAt(), []);
  const b = (await readLiveRecords(fileSystem, DIR)).filter((record) => record.key === "b");
  assert.deepEqual(b, [{ offset: 1, key: "b", value: "2" }]);
});

test("a crash at any step of a swap recovers each group to its old or new segments", async () => {
  const writes = Array.from(
    { length: 30 },
    (_, index) => [`k${index % 4}`, `value-${index}`] as const,
  );
  const reference = new MemoryFileSystem();
  const referenceLog = await logWith(reference, writes);
  // Each group is swapped in on its own, so the states a crash may leave are the log after
  // 0, 1, 2, ... groups were swapped: never a group half old and half new.
  const states = [await readLiveRecords(reference, DIR)];
  const replace = referenceLog.replaceSegments.bind(referenceLog);
  referenceLog.replaceSegments = async (newSegments, oldBaseOffsets) => {
    const isSwapped = await replace(newSegments, oldBaseOffsets);
    states.push(await readLiveRecords(reference, DIR));
    return isSwapped;
  };
  const operationsBefore = reference.operationCount;
  await cleanerFor(reference, referenceLog).cleanOnce(2000);
  assert.ok(states.length > 2, "the test needs several groups");
  const steps = reference.operationCount - operationsBefore;
  const seen = new Set<number>();
  for (let step = 0; step <= steps; step++) {
    const fileSystem = new MemoryFileSystem();
    const log = await logWith(fileSystem, writes);
    fileSystem.crashBeforeOperation = fileSystem.operationCount + step;
    await cleanerFor(fileSystem, log)
      .cleanOnce(2000)
      .catch(() => undefined);
    fileSystem.crash();
    await handleLeftoverFiles({
      fileSystem,
      dir: DIR,
      logger: silent,
      segmentOptions: (baseOffset) => log.optionsFor(baseOffset, 0),
      indexIntervalBytes: log.config.indexIntervalBytes,
      segmentIndexBytes: log.config.segmentIndexBytes,
    });
    const recovered = JSON.stringify(await readLiveRecords(fileSystem, DIR));
    const state = states.findIndex((records) => JSON.stringify(records) === recovered);
    assert.ok(state >= 0, `a crash before step ${step} left a mix: ${recovered}`);
    seen.add(state);
  }
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    states.map((_, index) => index),
  );
});
