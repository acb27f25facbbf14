import { test } from "node:test";
import assert from "node:assert/strict";
import { brokerId } from "../../src/common/index.js";
import {
  LogDirIdentityError,
  LogDirUnformattedError,
  writeMetaProperties,
} from "../../src/storage/index.js";
import {
  ManagerHarness,
  appendBatches,
  dirA,
  dirB,
  identity,
  ordersPartition as tp,
  textOf,
} from "./manager-harness.js";

test("new logs go to the online dir with the fewest logs, ties to the first listed", async () => {
  const harness = new ManagerHarness(81);
  const manager = await harness.start();
  const dirs = [];
  for (const partition of [0, 1, 2, 3]) {
    const log = await harness.logOf(manager, tp(partition));
    dirs.push(manager.logDirOf(tp(partition)));
    assert.ok(log.dir.endsWith(`/orders-${partition}`));
  }
  assert.deepEqual(dirs, [dirA, dirB, dirA, dirB]);
  const [again] = await harness.run(manager.getOrCreateLogs([{ topicPartition: tp(0) }]));
  assert.equal(again?.kind === "log" && again.isNew, false);
  assert.match(
    textOf(harness, `${dirA}/orders-0/partition.metadata`) ?? "",
    /^version: 0\ntopic_id: /,
  );
});

test("one batch places its new logs as one creation after another would", async () => {
  const harness = new ManagerHarness(83);
  const manager = await harness.start();
  await harness.logOf(manager, tp(0));
  const requests = [1, 2, 0, 3, 4, 2].map((partition) => ({ topicPartition: tp(partition) }));
  const results = await harness.run(manager.getOrCreateLogs(requests));
  const placed = results.map((result) =>
    result.kind === "log" ? [result.logDir, result.isNew] : [result.kind],
  );
  assert.deepEqual(placed, [
    [dirB, true],
    [dirA, true],
    [dirA, false],
    [dirB, true],
    [dirA, true],
    [dirA, true],
  ]);
  const second = results[5];
  assert.ok(second?.kind === "log" && second.log === (results[1] as { log: unknown }).log);
  assert.deepEqual(
    manager
      .allLogs()
      .map((log) => log.dir.slice(log.dir.lastIndexOf("/") + 1))
      .sort(),
    ["orders-0", "orders-1", "orders-2", "orders-3", "orders-4"],
  );
});

test("a dir with several partitions loads them all after a clean restart", async () => {
  const harness = new ManagerHarness(82);
  const manager = await harness.start();
  for (const partition of [0, 1, 2, 3, 4]) {
    const log = await harness.logOf(manager, tp(partition));
    await harness.run(appendBatches(log, `p${partition}`, partition + 1));
  }
  await harness.run(manager.shutdown(7));
  assert.equal(
    textOf(harness, `${dirA}/.kafka_cleanshutdown`),
    '{"broker_epoch":"7","version":"0"}',
  );
  const restarted = await harness.start();
  assert.equal(restarted.previousBrokerEpoch, 7);
  assert.equal(textOf(harness, `${dirA}/.kafka_cleanshutdown`), undefined);
  for (const partition of [0, 1, 2, 3, 4]) {
    const lookup = restarted.getLog(tp(partition));
    assert.equal(lookup.kind, "online");
    if (lookup.kind === "online") assert.equal(lookup.log.logEndOffset, (partition + 1) * 3);
  }
  assert.equal(restarted.allLogs().length, 5);
  assert.ok(harness.logger.lines.every((line) => !line.includes("recovery truncated a log")));
});

test("without the marker a restart is unclean and what recovery cuts is counted", async () => {
  const harness = new ManagerHarness(83);
  const manager = await harness.start();
  await harness.run(appendBatches(await harness.logOf(manager, tp(0)), "p0", 2));
  await harness.run(manager.shutdown());
  // A torn tail: bytes after the last whole batch, as a crash in the middle of a write leaves.
  const tornTail = async () => {
    await harness.fs.unlink(`${dirA}/.kafka_cleanshutdown`);
    const segment = await harness.fs.open(`${dirA}/orders-0/00000000000000000000.log`);
    await segment.append(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 40, 1]));
    await segment.sync();
    await segment.close();
  };
  await harness.run(tornTail());
  const restarted = await harness.start();
  assert.equal(restarted.previousBrokerEpoch, undefined);
  const lookup = restarted.getLog(tp(0));
  assert.ok(lookup.kind === "online" && lookup.log.logEndOffset === 6);
  const counted = harness.metrics.valueOf("sluice_log_recovery_truncated_bytes_total", {
    dir: dirA,
  });
  assert.equal(counted, 13);
});

test("checkpoints are written on schedule and survive a crash, recovery points too", async () => {
  const harness = new ManagerHarness(84);
  const manager = await harness.start();
  const startMs = harness.node.clock.nowMs();
  const log = await harness.logOf(manager, tp(0));
  await harness.run(appendBatches(log, "p0", 2));
  manager.setHighWatermark(tp(0), 4);
  const first = await harness.run(manager.runPeriodicTasks(startMs + 30_000));
  assert.ok(first.tasks.includes("recovery-point-checkpoint"));
  assert.equal(textOf(harness, `${dirA}/recovery-point-offset-checkpoint`), "0\n1\norders 0 0\n");
  assert.equal(textOf(harness, `${dirA}/replication-offset-checkpoint`), "0\n1\norders 0 4\n");
  assert.equal(textOf(harness, `${dirB}/recovery-point-offset-checkpoint`), "0\n0\n");
  await harness.run(log.flush());
  // The checkpoint runs every 60 s after its first run at 30 s: not yet at 60 s.
  await harness.run(manager.runPeriodicTasks(startMs + 60_000));
  assert.equal(textOf(harness, `${dirA}/recovery-point-offset-checkpoint`), "0\n1\norders 0 0\n");
  await harness.run(manager.runPeriodicTasks(startMs + 90_000));
  assert.equal(textOf(harness, `${dirA}/recovery-point-offset-checkpoint`), "0\n1\norders 0 6\n");
  harness.crash();
  const restarted = await harness.start();
  assert.equal(restarted.highWatermarkOf(tp(0)), 4);
  const lookup = restarted.getLog(tp(0));
  assert.ok(lookup.kind === "online" && lookup.log.recoveryPoint >= 6);
  assert.equal(lookup.log.logEndOffset, 6, "flushed batches survive the crash");
});

test("a dir of another cluster or node is refused, naming the dir", async () => {
  for (const [clusterId, nodeId] of [
    ["another-cluster", identity.nodeId],
    [identity.clusterId, brokerId(2)],
  ] as const) {
    const harness = new ManagerHarness(85);
    await harness.run(harness.fs.mkdir(dirB, { recursive: true }));
    await harness.run(writeMetaProperties(harness.fs, dirB, { version: 1, clusterId, nodeId }, 0));
    await assert.rejects(
      harness.start(),
      (error: unknown) => error instanceof LogDirIdentityError && error.message.includes(dirB),
    );
  }
});

test("an unformatted dir is formatted when allowed or when another dir is formatted", async () => {
  const harness = new ManagerHarness(86);
  await assert.rejects(
    harness.start(harness.config(), { formatUnformatted: false }),
    LogDirUnformattedError,
  );
  const single = await harness.start(harness.config({ logDirs: [dirA] }));
  assert.match(textOf(harness, `${dirA}/meta.properties`) ?? "", /directory\.id=/);
  await harness.run(single.shutdown());
  // A dir added to log.dirs later is formatted from the identity the first one proves.
  const both = await harness.start(harness.config(), { formatUnformatted: false });
  assert.match(
    textOf(harness, `${dirB}/meta.properties`) ?? "",
    /cluster\.id=Dz1DTnH3T0WL3dxJgZCkvg/,
  );
  assert.notEqual(both.directoryIdOf(dirA), both.directoryIdOf(dirB));
});

test("a failed checkpoint write takes its dir offline too", async () => {
  const harness = new ManagerHarness(87);
  const manager = await harness.start();
  const startMs = harness.node.clock.nowMs();
  await harness.logOf(manager, tp(0));
  await harness.logOf(manager, tp(1));
  harness.fs.injectFault({ code: "ENOSPC", path: `${dirB}/recovery-point-offset-checkpoint.tmp` });
  await harness.run(manager.runPeriodicTasks(startMs + 30_000));
  assert.deepEqual(
    harness.failures.map((failure) => failure.logDir),
    [dirB],
  );
  assert.deepEqual(harness.failures[0]?.partitions, [tp(1)]);
  assert.equal(manager.getLog(tp(0)).kind, "online");
});

test("a deleted log's folder is renamed at once, removed after file.delete.delay.ms", async () => {
  const harness = new ManagerHarness(88);
  const manager = await harness.start();
  await harness.run(appendBatches(await harness.logOf(manager, tp(0)), "p0", 1));
  assert.equal(await harness.run(manager.deleteLog(tp(0))), true);
  assert.deepEqual(manager.getLog(tp(0)), { kind: "notFound" });
  const names = harness.fs.peekDirectory(dirA) ?? [];
  const deleted = names.find((name) => /^orders-0\.[0-9a-f]{32}-delete$/.test(name));
  assert.ok(deleted !== undefined, names.join(","));
  // A restart before the delay neither loads the folder nor forgets to delete it.
  await harness.run(manager.shutdown());
  const restarted = await harness.start();
  assert.deepEqual(restarted.getLog(tp(0)), { kind: "notFound" });
  const work = await harness.run(restarted.runPeriodicTasks(harness.node.clock.nowMs() + 1000));
  assert.equal(work.deletedFolders, 1);
  assert.equal((harness.fs.peekDirectory(dirA) ?? []).includes(deleted), false);
});
