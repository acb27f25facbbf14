import { test } from "node:test";
import assert from "node:assert/strict";
import { LogAppendError } from "../../src/storage/index.js";
import { makeBatch } from "./log-harness.js";
import { ManagerHarness, dirA, dirB, ordersPartition, textOf } from "./manager-harness.js";

test("an EIO on one partition's append takes its whole dir offline at once, once", async () => {
  const harness = new ManagerHarness(61);
  const manager = await harness.start();
  const logs = [];
  for (const partition of [0, 1, 2, 3])
    logs.push(await harness.logOf(manager, ordersPartition(partition)));
  assert.deepEqual(
    logs.map((log) => log.dir.slice(0, dirA.length)),
    [dirA, dirB, dirA, dirB],
  );
  const [inA, inB, alsoInA] = logs;
  assert.ok(inA !== undefined && inB !== undefined && alsoInA !== undefined);
  harness.fs.injectFault({ code: "EIO", operations: ["append"], path: inA.dir });
  await assert.rejects(
    harness.run(inA.appendAsLeader(makeBatch({ count: 2, tag: "lost" }), { leaderEpoch: 0 })),
    /EIO/,
  );
  // No periodic work ran: the append's own error took the dir offline.
  assert.equal(harness.failures.length, 1);
  assert.equal(harness.failures[0]?.logDir, dirA);
  assert.deepEqual(harness.failures[0]?.partitions.map((each) => each.partition).sort(), [0, 2]);
  assert.equal(harness.failures[0]?.isLastOnlineDir, false);
  assert.deepEqual(manager.getLog(ordersPartition(2)), { kind: "offlineDir", logDir: dirA });
  assert.deepEqual(manager.liveLogDirs(), [dirB]);
  assert.equal(harness.metrics.valueOf("sluice_log_dir_offline", { dir: dirA }), 1);
  // The other log of the failed dir was closed; using it is a storage error, not a crash.
  await assert.rejects(
    harness.run(alsoInA.appendAsLeader(makeBatch({ count: 1, tag: "late" }), { leaderEpoch: 0 })),
    { name: "LogClosedError" },
  );
  const written = await harness.run(
    inB.appendAsLeader(makeBatch({ count: 3, tag: "kept" }), { leaderEpoch: 0 }),
  );
  assert.equal(written.lastOffset, 2);
  manager.setHighWatermark(ordersPartition(1), 3);
  await harness.run(manager.runPeriodicTasks(harness.node.clock.nowMs() + 60_000));
  assert.equal(harness.failures.length, 1, "the failure is reported once");
  assert.equal(manager.getLog(ordersPartition(1)).kind, "online");
  assert.match(textOf(harness, `${dirB}/replication-offset-checkpoint`) ?? "", /orders 1 3/);
  const [created] = await harness.run(
    manager.getOrCreateLogs([{ topicPartition: ordersPartition(9) }]),
  );
  assert.ok(created?.kind === "log" && created.logDir === dirB, "new logs go to the live dir");
  const refused = await harness.run(
    manager.getOrCreateLogs([{ topicPartition: ordersPartition(2) }]),
  );
  assert.deepEqual(refused, [{ kind: "offlineDir", logDir: dirA }]);
});

test("a read error takes the dir offline; a refused input never does", async () => {
  const harness = new ManagerHarness(62);
  const manager = await harness.start();
  const inA = await harness.logOf(manager, ordersPartition(0));
  await harness.run(inA.appendAsLeader(makeBatch({ count: 2, tag: "x" }), { leaderEpoch: 0 }));
  await assert.rejects(
    harness.run(inA.appendAsLeader(new Uint8Array([0, 0, 0, 0, 1]), { leaderEpoch: 0 })),
    LogAppendError,
  );
  assert.equal(harness.failures.length, 0, "a refused input is not a dir failure");
  const read = await harness.run(
    inA.read({ fromOffset: 0, maxBytes: 1 << 20, maxOffset: 2, minOneBatch: true }),
  );
  assert.ok(read.kind === "records" && read.slices[0] !== undefined);
  harness.fs.injectFault({ code: "EIO", operations: ["read"], path: inA.dir, times: 1 });
  await assert.rejects(harness.run(inA.readBytes(read.slices[0])), /EIO/);
  assert.deepEqual(
    harness.failures.map((failure) => failure.logDir),
    [dirA],
  );
  assert.deepEqual(manager.liveLogDirs(), [dirB]);
});
