/**
 * A log dir offline for a full disk comes back once there is room (log-dir-recovery.driver.ts),
 * on the simulated disk: the probe runs with the periodic work, the dir's logs load again with
 * what was written before, and the listeners hear it. A dir that failed while another stayed
 * online, or for another error, stays offline.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LogDirRecovery } from "../../src/storage/index.js";
import { makeBatch } from "./log-harness.js";
import { ManagerHarness, dirA, ordersPartition } from "./manager-harness.js";

/** Past Kafka's 30 s initial delay of the periodic work, and a probe interval. */
const LATER_MS = 31_000;

async function fullDisk(seed: number, code: "ENOSPC" | "EIO", logDirs?: readonly string[]) {
  const harness = new ManagerHarness(seed);
  const config = harness.config({
    logDirFullProbeIntervalMs: 1000,
    ...(logDirs ? { logDirs } : {}),
  });
  const manager = await harness.start(config);
  const recoveries: LogDirRecovery[] = [];
  manager.fullDirRecovery.subscribe((recovery) => recoveries.push(recovery));
  const log = await harness.logOf(manager, ordersPartition(0), { logDir: dirA });
  await harness.run(log.appendAsLeader(makeBatch({ count: 3, tag: "kept" }), { leaderEpoch: 0 }));
  const fault = harness.fs.injectFault({ code, operations: ["append"], path: dirA });
  await assert.rejects(
    harness.run(log.appendAsLeader(makeBatch({ count: 1, tag: "lost" }), { leaderEpoch: 0 })),
    new RegExp(code),
  );
  assert.equal(manager.isLogDirOnline(dirA), false);
  return { harness, manager, recoveries, fault };
}

test("a dir offline for a full disk comes back with its logs once there is room", async () => {
  const { harness, manager, recoveries, fault } = await fullDisk(81, "ENOSPC", [dirA]);
  const nowMs = harness.node.clock.nowMs();
  const stillFull = harness.fs.injectFault({ code: "ENOSPC", operations: ["write"], path: dirA });
  await harness.run(manager.runPeriodicTasks(nowMs + LATER_MS));
  assert.equal(manager.isLogDirOnline(dirA), false, "no room yet: the probe fails");
  stillFull.remove();
  fault.remove();
  await harness.run(manager.runPeriodicTasks(nowMs + LATER_MS + 2000));
  assert.equal(manager.isLogDirOnline(dirA), true);
  assert.deepEqual(
    recoveries.map((recovery) => [recovery.logDir, recovery.partitions]),
    [[dirA, [ordersPartition(0)]]],
  );
  assert.equal(harness.metrics.valueOf("sluice_log_dir_offline", { dir: dirA }), 0);
  const lookup = manager.getLog(ordersPartition(0));
  assert.ok(lookup.kind === "online");
  assert.equal(lookup.log.logEndOffset, 3, "the records written before are there");
  const written = await harness.run(
    lookup.log.appendAsLeader(makeBatch({ count: 2, tag: "again" }), { leaderEpoch: 0 }),
  );
  assert.equal(written.lastOffset, 4);
});

test("a dir failed for another error, or beside a dir still online, stays offline", async () => {
  for (const [seed, code, logDirs] of [
    [82, "EIO", [dirA]],
    [83, "ENOSPC", undefined],
  ] as const) {
    const { harness, manager, recoveries, fault } = await fullDisk(seed, code, logDirs);
    fault.remove();
    await harness.run(manager.runPeriodicTasks(harness.node.clock.nowMs() + LATER_MS));
    assert.equal(manager.isLogDirOnline(dirA), false, `${code} in ${logDirs ?? "two dirs"}`);
    assert.deepEqual(recoveries, []);
  }
});
