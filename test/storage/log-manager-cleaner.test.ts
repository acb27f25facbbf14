import { test } from "node:test";
import assert from "node:assert/strict";
import type { LogManager, PartitionLog } from "../../src/storage/index.js";
import { appendWrites, latestPerKey, readRecords, type Write } from "./cleaner-harness.js";
import { ManagerHarness, dirA, dirB, ordersPartition } from "./manager-harness.js";

const compacted = {
  segmentBytes: 400,
  cleanupPolicy: { delete: false, compact: true },
  minCleanableDirtyRatio: 0,
  indexIntervalBytes: 100,
};
const writes = Array.from({ length: 40 }, (_, index): Write => [`k${index % 5}`, `v${index}`]);

/** Two compacted logs, one per dir, holding `writes`, flushed. */
async function twoCompactedLogs(
  harness: ManagerHarness,
  manager: LogManager,
): Promise<PartitionLog[]> {
  const logs = [];
  for (const partition of [0, 1]) {
    const log = await harness.logOf(manager, ordersPartition(partition));
    await harness.run(appendWrites(log, writes).then(() => log.flush()));
    logs.push(log);
  }
  return logs;
}

const checkpointText = (harness: ManagerHarness, logDir: string) =>
  new TextDecoder().decode(harness.fs.peekFile(`${logDir}/cleaner-offset-checkpoint`));

test("the manager cleans compacted logs below their high watermarks, then backs off", async () => {
  const harness = new ManagerHarness(71);
  const manager = await harness.start(harness.config({}, compacted));
  // The schedule started while the manager started, no later than now.
  const startMs = harness.node.clock.nowMs();
  const logs = await twoCompactedLogs(harness, manager);
  const before = await readRecords(harness, logs[0] as PartitionLog);
  const run = (atMs: number) => harness.run(manager.runPeriodicTasks(startMs + atMs));
  const first = await run(30_000);
  assert.ok(first.tasks.includes("log-cleaner"));
  assert.equal(first.cleanedLogs, 0, "without a high watermark nothing is committed");
  for (const [partition, log] of logs.entries())
    manager.setHighWatermark(ordersPartition(partition), log.logEndOffset);
  assert.equal((await run(40_000)).tasks.includes("log-cleaner"), false, "backoff after nothing");
  assert.equal((await run(45_000)).cleanedLogs, 2, "one log in each dir");
  const endOffset = (logs[0] as PartitionLog).segments().at(-1)?.baseOffset ?? 0;
  for (const log of logs)
    assert.deepEqual(await readRecords(harness, log), latestPerKey(before, endOffset));
  assert.equal(checkpointText(harness, dirA), `0\n1\norders 0 ${endOffset}\n`);
  assert.equal(checkpointText(harness, dirB), `0\n1\norders 1 ${endOffset}\n`);
  // A pass that cleaned is followed at once by another; that one finds nothing and backs off.
  const again = await run(45_000);
  assert.deepEqual([again.tasks.includes("log-cleaner"), again.cleanedLogs], [true, 0]);
  assert.equal((await run(59_000)).tasks.includes("log-cleaner"), false);
  assert.equal((await run(60_000)).tasks.includes("log-cleaner"), true);
  assert.equal(await harness.run(manager.deleteLog(ordersPartition(0))), true);
  assert.equal(checkpointText(harness, dirA), "0\n0\n", "a deleted log leaves the checkpoint");
});

test("with log.cleaner.enable=false nothing is compacted", async () => {
  const harness = new ManagerHarness(72);
  const manager = await harness.start(harness.config({ logCleanerEnable: false }, compacted));
  const startMs = harness.node.clock.nowMs();
  const logs = await twoCompactedLogs(harness, manager);
  for (const [partition, log] of logs.entries())
    manager.setHighWatermark(ordersPartition(partition), log.logEndOffset);
  const work = await harness.run(manager.runPeriodicTasks(startMs + 3_600_000));
  assert.equal(work.tasks.includes("log-cleaner"), false);
  assert.equal((await readRecords(harness, logs[0] as PartitionLog)).length, writes.length);
  assert.equal(harness.fs.peekFile(`${dirA}/cleaner-offset-checkpoint`), undefined);
});

test("an I/O error while cleaning takes only that dir offline", async () => {
  const harness = new ManagerHarness(73);
  const manager = await harness.start(harness.config({}, compacted));
  // The schedule started while the manager started, no later than now.
  const startMs = harness.node.clock.nowMs();
  const logs = await twoCompactedLogs(harness, manager);
  for (const [partition, log] of logs.entries())
    manager.setHighWatermark(ordersPartition(partition), log.logEndOffset);
  harness.fs.injectFault({ code: "EIO", operations: ["rename"], path: dirA });
  const work = await harness.run(manager.runPeriodicTasks(startMs + 30_000));
  assert.equal(work.cleanedLogs, 1);
  assert.deepEqual(
    harness.failures.map((failure) => failure.logDir),
    [dirA],
  );
  assert.deepEqual(manager.liveLogDirs(), [dirB]);
});
