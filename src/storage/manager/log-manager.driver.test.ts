import { test } from "node:test";
import assert from "node:assert/strict";
import { brokerId } from "../../common/index.js";
import { writeMetaProperties } from "../meta-properties.driver.js";
import { LogDirIdentityError } from "../meta-properties.js";
import { LogDirUnformattedError } from "./log-dir-loader.driver.js";
import type { LogDirFailure } from "./log-manager-types.js";
import {
  appendBatches,
  DIR_A,
  DIR_B,
  IDENTITY,
  newKit,
  startManager,
  testConfig,
  textOf,
  TOPIC_ID,
} from "./log-manager-test-kit.test-support.js";

const tp = (partition: number) => ({ topic: "orders", partition });

async function createOnline(manager: Awaited<ReturnType<typeof startManager>>, partition: number) {
  const result = await manager.getOrCreateLog(tp(partition), { topicId: TOPIC_ID });
  assert.equal(result.kind, "log");
  return result;
}

test("new logs go to the online dir with the fewest logs, ties to the first listed", async () => {
  const kit = newKit();
  const manager = await startManager(kit);
  const dirs = [];
  for (const partition of [0, 1, 2, 3]) dirs.push((await createOnline(manager, partition)).logDir);
  assert.deepEqual(dirs, [DIR_A, DIR_B, DIR_A, DIR_B]);
  const again = await manager.getOrCreateLog(tp(0));
  assert.equal(again.kind === "log" && again.isNew, false);
  assert.match(
    textOf(kit, `${DIR_A}/orders-0/partition.metadata`) ?? "",
    /^version: 0\ntopic_id: /,
  );
});

test("a dir with several partitions loads them all after a clean restart", async () => {
  const kit = newKit();
  const manager = await startManager(kit);
  for (const partition of [0, 1, 2, 3, 4]) {
    const created = await createOnline(manager, partition);
    if (created.kind === "log") await appendBatches(created.log, `p${partition}`, partition + 1);
  }
  await manager.shutdown(7);
  assert.equal(textOf(kit, `${DIR_A}/.kafka_cleanshutdown`), '{"broker_epoch":"7","version":"0"}');
  const restarted = await startManager(kit);
  assert.equal(restarted.previousBrokerEpoch, 7);
  assert.equal(textOf(kit, `${DIR_A}/.kafka_cleanshutdown`), undefined);
  for (const partition of [0, 1, 2, 3, 4]) {
    const lookup = restarted.getLog(tp(partition));
    assert.equal(lookup.kind, "online");
    if (lookup.kind === "online") assert.equal(lookup.log.logEndOffset, (partition + 1) * 3);
  }
  assert.equal(restarted.allLogs().length, 5);
  assert.ok(kit.logger.lines.every((line) => line.message !== "recovery truncated a log"));
});

test("without the marker a restart is unclean and what recovery cuts is counted", async () => {
  const kit = newKit();
  const manager = await startManager(kit);
  const created = await createOnline(manager, 0);
  if (created.kind === "log") await appendBatches(created.log, "p0", 2);
  await manager.shutdown();
  // A torn tail: bytes after the last whole batch, as a crash in the middle of a write leaves.
  await kit.memory.unlink(`${DIR_A}/.kafka_cleanshutdown`);
  const segment = await kit.memory.open(`${DIR_A}/orders-0/00000000000000000000.log`);
  await segment.append(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 40, 1]));
  await segment.sync();
  await segment.close();
  const restarted = await startManager(kit);
  assert.equal(restarted.previousBrokerEpoch, undefined);
  const lookup = restarted.getLog(tp(0));
  assert.ok(lookup.kind === "online" && lookup.log.logEndOffset === 6);
  const counted = kit.metrics.valueOf("sluice_log_recovery_truncated_bytes_total", { dir: DIR_A });
  assert.equal(counted, 13);
});

test("checkpoints are written on schedule, read back; recovery points follow flushes", async () => {
  const kit = newKit();
  const startMs = kit.clock.currentMs;
  const manager = await startManager(kit);
  const created = await createOnline(manager, 0);
  assert.ok(created.kind === "log");
  await appendBatches(created.log, "p0", 2);
  manager.setHighWatermark(tp(0), 4);
  const first = await manager.runPeriodicTasks(startMs + 30_000);
  assert.ok(first.tasks.includes("recovery-point-checkpoint"));
  assert.equal(textOf(kit, `${DIR_A}/recovery-point-offset-checkpoint`), "0\n1\norders 0 0\n");
  assert.equal(textOf(kit, `${DIR_A}/replication-offset-checkpoint`), "0\n1\norders 0 4\n");
  assert.equal(textOf(kit, `${DIR_B}/recovery-point-offset-checkpoint`), "0\n0\n");
  await created.log.flush();
  // The checkpoint runs every 60 s after its first run at 30 s: not yet at 60 s.
  await manager.runPeriodicTasks(startMs + 60_000);
  assert.equal(textOf(kit, `${DIR_A}/recovery-point-offset-checkpoint`), "0\n1\norders 0 0\n");
  await manager.runPeriodicTasks(startMs + 90_000);
  assert.equal(textOf(kit, `${DIR_A}/recovery-point-offset-checkpoint`), "0\n1\norders 0 6\n");
  kit.memory.crash();
  const restarted = await startManager(kit);
  assert.equal(restarted.highWatermarkOf(tp(0)), 4);
  const lookup = restarted.getLog(tp(0));
  assert.ok(lookup.kind === "online" && lookup.log.recoveryPoint >= 6);
});

test("a dir of another cluster or node is refused, naming the dir", async () => {
  for (const [clusterId, nodeId] of [
    ["another-cluster", IDENTITY.nodeId],
    [IDENTITY.clusterId, brokerId(2)],
  ] as const) {
    const kit = newKit();
    await kit.memory.mkdir(DIR_B, { recursive: true });
    await writeMetaProperties(kit.memory, DIR_B, { version: 1, clusterId, nodeId }, 0);
    await assert.rejects(
      startManager(kit),
      (error: unknown) => error instanceof LogDirIdentityError && error.message.includes(DIR_B),
    );
  }
});

test("an unformatted dir is formatted when allowed or when another dir is formatted", async () => {
  const kit = newKit();
  await assert.rejects(startManager(kit, { formatUnformatted: false }), LogDirUnformattedError);
  const single = await startManager(kit, { config: testConfig([DIR_A]), formatUnformatted: true });
  assert.match(textOf(kit, `${DIR_A}/meta.properties`) ?? "", /directory\.id=/);
  await single.shutdown();
  // A dir added to log.dirs later is formatted from the identity the first one proves.
  const both = await startManager(kit, { formatUnformatted: false });
  assert.match(textOf(kit, `${DIR_B}/meta.properties`) ?? "", /cluster\.id=Dz1DTnH3T0WL3dxJgZCkvg/);
  assert.notEqual(both.directoryIdOf(DIR_A), both.directoryIdOf(DIR_B));
});

test("an EIO on one of two dirs takes only that dir's partitions offline, once", async () => {
  const kit = newKit();
  const manager = await startManager(kit);
  const logs = [];
  for (const partition of [0, 1, 2, 3]) logs.push(await createOnline(manager, partition));
  const failures: LogDirFailure[] = [];
  manager.onLogDirFailure((failure) => failures.push(failure));
  kit.fileSystem.failUnder(DIR_A, "EIO");
  const inA = logs[0];
  assert.ok(inA?.kind === "log");
  await assert.rejects(appendBatches(inA.log, "lost", 1));
  await manager.runPeriodicTasks(kit.clock.currentMs + 30_000);
  assert.equal(failures.length, 1);
  assert.equal(failures[0]?.logDir, DIR_A);
  assert.deepEqual(failures[0]?.partitions.map((partition) => partition.partition).sort(), [0, 2]);
  assert.equal(failures[0]?.isLastOnlineDir, false);
  assert.deepEqual(manager.getLog(tp(0)), { kind: "offlineDir", logDir: DIR_A });
  assert.deepEqual(manager.liveLogDirs(), [DIR_B]);
  assert.equal(manager.allLogs().length, 2);
  assert.equal(kit.metrics.valueOf("sluice_log_dir_offline", { dir: DIR_A }), 1);
  const inB = manager.getLog(tp(1));
  assert.ok(inB.kind === "online");
  await appendBatches(inB.log, "kept", 2);
  manager.setHighWatermark(tp(1), 6);
  await manager.runPeriodicTasks(kit.clock.currentMs + 40_000);
  assert.match(textOf(kit, `${DIR_B}/replication-offset-checkpoint`) ?? "", /orders 1 6/);
  const created = await manager.getOrCreateLog(tp(9));
  assert.ok(created.kind === "log" && created.logDir === DIR_B);
  assert.deepEqual(await manager.getOrCreateLog(tp(2)), { kind: "offlineDir", logDir: DIR_A });
});

test("a failed checkpoint write takes its dir offline too", async () => {
  const kit = newKit();
  const manager = await startManager(kit);
  await createOnline(manager, 0);
  await createOnline(manager, 1);
  const failures: LogDirFailure[] = [];
  manager.onLogDirFailure((failure) => failures.push(failure));
  kit.fileSystem.failUnder(`${DIR_B}/recovery-point-offset-checkpoint.tmp`, "ENOSPC");
  await manager.runPeriodicTasks(kit.clock.currentMs + 30_000);
  assert.deepEqual(
    failures.map((failure) => failure.logDir),
    [DIR_B],
  );
  assert.deepEqual(failures[0]?.partitions, [tp(1)]);
  assert.equal(manager.getLog(tp(0)).kind, "online");
});

test("a deleted log's folder is renamed at once, removed after file.delete.delay.ms", async () => {
  const kit = newKit();
  const manager = await startManager(kit);
  const created = await createOnline(manager, 0);
  assert.ok(created.kind === "log");
  await appendBatches(created.log, "p0", 1);
  assert.equal(await manager.deleteLog(tp(0)), true);
  assert.deepEqual(manager.getLog(tp(0)), { kind: "notFound" });
  const names = await kit.memory.readdir(DIR_A);
  const deleted = names.find((name) => /^orders-0\.[0-9a-f]{32}-delete$/.test(name));
  assert.ok(deleted !== undefined, names.join(","));
  // A restart before the delay neither loads the folder nor forgets to delete it.
  await manager.shutdown();
  const restarted = await startManager(kit);
  assert.deepEqual(restarted.getLog(tp(0)), { kind: "notFound" });
  const work = await restarted.runPeriodicTasks(kit.clock.currentMs + 1000);
  assert.equal(work.deletedFolders, 1);
  assert.equal((await kit.memory.readdir(DIR_A)).includes(deleted), false);
});
