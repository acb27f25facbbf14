/**
 * The log manager under a small descriptor budget (`sluice.log.max.open.files`) on the simulated
 * disk: many partitions stay usable, and a process out of descriptors refuses the work without
 * taking the dir offline.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { FileHandlePool } from "../../src/storage/file-handle-pool.driver.js";
import { makeBatch } from "./log-harness.js";
import { ManagerHarness, dirA, ordersPartition } from "./manager-harness.js";

test("forty partitions within a budget of sixteen open files all append and read", async () => {
  const harness = new ManagerHarness(71);
  const manager = await harness.start(harness.config({ maxOpenFiles: 16 }));
  const logs = [];
  for (let partition = 0; partition < 40; partition++)
    logs.push(await harness.logOf(manager, ordersPartition(partition)));
  for (const log of logs) {
    await harness.run(log.appendAsLeader(makeBatch({ count: 2, tag: "x" }), { leaderEpoch: 0 }));
  }
  for (const log of logs) {
    const read = await harness.run(
      log.read({ fromOffset: 0, maxBytes: 1 << 20, maxOffset: 2, minOneBatch: true }),
    );
    assert.ok(read.kind === "records" && read.slices[0] !== undefined);
    const bytes = await harness.run(log.readBytes(read.slices[0]));
    assert.ok(bytes.length > 0);
  }
  assert.ok(manager.fileSystem instanceof FileHandlePool);
  const stats = manager.fileSystem.stats();
  assert.ok(stats.openFilesPeak <= 16, `peak ${stats.openFilesPeak}`);
  assert.ok(stats.idleCloses > 0, "files were closed while idle and opened again");
  assert.equal(harness.failures.length, 0);
});

/**
 * Twenty logs within a budget of sixteen files; the first holds two records, and the others'
 * appends since pushed its files out of the budget (`pushOut` does it again).
 */
async function firstOfTwenty(seed: number) {
  const harness = new ManagerHarness(seed);
  const manager = await harness.start(harness.config({ maxOpenFiles: 16 }));
  const logs = [];
  for (let partition = 0; partition < 20; partition++)
    logs.push(await harness.logOf(manager, ordersPartition(partition)));
  const [first, ...others] = logs;
  assert.ok(first !== undefined && first.dir.startsWith(dirA));
  await harness.run(first.appendAsLeader(makeBatch({ count: 2, tag: "a" }), { leaderEpoch: 0 }));
  const pushOut = async () => {
    for (const log of others) {
      await harness.run(log.appendAsLeader(makeBatch({ count: 1, tag: "y" }), { leaderEpoch: 0 }));
    }
  };
  await pushOut();
  return { harness, manager, first, pushOut };
}

for (const code of ["EMFILE", "ENFILE"] as const) {
  test(`${code} refuses the read that needed a file and leaves the dir online`, async () => {
    const { harness, manager, first, pushOut } = await firstOfTwenty(72);
    const read = await harness.run(
      first.read({ fromOffset: 0, maxBytes: 1 << 20, maxOffset: 2, minOneBatch: true }),
    );
    assert.ok(read.kind === "records" && read.slices[0] !== undefined);
    await pushOut();
    const fault = harness.fs.injectFault({ code, operations: ["open"], path: first.dir });
    await assert.rejects(harness.run(first.readBytes(read.slices[0])), new RegExp(code));
    assert.equal(harness.failures.length, 0, "no dir failure");
    assert.equal(manager.getLog(ordersPartition(0)).kind, "online");
    fault.remove();
    const bytes = await harness.run(first.readBytes(read.slices[0]));
    assert.ok(bytes.length > 0, "the same read succeeds once descriptors are there");
  });
}

test("an append refused for EMFILE leaves its log usable once descriptors are back", async () => {
  const { harness, first } = await firstOfTwenty(73);
  const fault = harness.fs.injectFault({ code: "EMFILE", operations: ["open"], path: first.dir });
  await assert.rejects(
    harness.run(first.appendAsLeader(makeBatch({ count: 1, tag: "b" }), { leaderEpoch: 0 })),
    /EMFILE/,
  );
  fault.remove();
  assert.equal(harness.failures.length, 0, "no dir failure");
  assert.equal(first.logEndOffset, 2, "nothing of the refused append was written");
  const written = await harness.run(
    first.appendAsLeader(makeBatch({ count: 3, tag: "c" }), { leaderEpoch: 0 }),
  );
  assert.equal(written.lastOffset, 4, "the log takes appends again, after the first two records");
});
