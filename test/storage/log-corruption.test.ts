import { test } from "node:test";
import assert from "node:assert/strict";
import { LogHarness, makeBatch, partitionDir, readAll, testConfig } from "./log-harness.js";

const logPath = `${partitionDir}/00000000000000000000.log`;
const indexPath = `${partitionDir}/00000000000000000000.index`;

/** A log of `count` batches, closed cleanly; resolves to the harness and each batch's size. */
async function closedLog(
  seed: number,
  count: number,
): Promise<{ harness: LogHarness; sizes: number[] }> {
  const harness = new LogHarness(seed);
  const log = await harness.open(testConfig({ indexIntervalBytes: 50 }));
  const sizes: number[] = [];
  for (let index = 0; index < count; index++) {
    const batch = makeBatch({ count: 2, tag: `c${index}` });
    sizes.push(batch.length);
    await harness.run(log.appendAsLeader(batch, { leaderEpoch: 0 }));
  }
  await harness.run(log.close());
  return { harness, sizes };
}

/** Rewrites a file of the simulated disk through the port. */
async function rewrite(
  harness: LogHarness,
  path: string,
  change: (bytes: Uint8Array) => Uint8Array,
): Promise<void> {
  const bytes = harness.fs.peekFile(path);
  assert.ok(bytes !== undefined);
  const handle = await harness.run(harness.fs.open(path, { truncate: true }));
  await harness.run(handle.write(change(bytes), 0));
  await harness.run(handle.sync());
  await harness.run(handle.close());
}

test("a flipped bit in the tail batch is found and the log ends before it", async () => {
  const { harness, sizes } = await closedLog(21, 6);
  await rewrite(harness, logPath, (bytes) => {
    const changed = bytes.slice();
    changed[changed.length - 5] = (changed[changed.length - 5] ?? 0) ^ 0x10;
    return changed;
  });
  const log = await harness.open(testConfig(), { recoveryPoint: 8, hadCleanShutdown: false });
  assert.equal(log.logEndOffset, 10);
  assert.equal(log.recoveryReport.truncatedBytes, sizes[5]);
  assert.equal((await readAll(harness, log)).length, 5);
  assert.ok(harness.logger.lines.some((line) => line.includes("truncated a segment")));
});

test("a truncated tail is cut off, and nothing past a corrupt batch is served", async () => {
  const { harness, sizes } = await closedLog(22, 6);
  const keep = (sizes[0] ?? 0) + (sizes[1] ?? 0) + 20;
  await rewrite(harness, logPath, (bytes) => {
    const changed = bytes.slice();
    changed[keep] = (changed[keep] ?? 0) ^ 0xff;
    return changed;
  });
  const log = await harness.open(testConfig(), { recoveryPoint: 0, hadCleanShutdown: false });
  assert.equal(log.logEndOffset, 4, "the batches after the corrupt third one are gone too");
  assert.equal((await readAll(harness, log)).length, 2);
});

test("an index that disagrees with its segment is rebuilt, even on a clean start", async () => {
  const { harness } = await closedLog(23, 12);
  const original = harness.fs.peekFile(indexPath) ?? new Uint8Array(0);
  assert.ok(original.length >= 16, "the index has entries");
  await rewrite(harness, indexPath, (bytes) => {
    const changed = bytes.slice();
    const view = new DataView(changed.buffer);
    view.setInt32(changed.length - 4, view.getInt32(changed.length - 4) + 7);
    return changed;
  });
  const log = await harness.open(testConfig({ indexIntervalBytes: 50 }), {
    recoveryPoint: 24,
    hadCleanShutdown: true,
  });
  assert.equal(log.recoveryReport.rebuiltIndexCount, 1);
  assert.deepEqual(harness.fs.peekFile(indexPath), original);
  assert.equal((await readAll(harness, log)).length, 12);
});
