import { test } from "node:test";
import assert from "node:assert/strict";
import type { LogManager } from "../../src/storage/index.js";
import {
  ManagerHarness,
  appendBatches,
  dirA,
  dirB,
  ordersPartition,
  readWholeLog,
} from "./manager-harness.js";

const partition = ordersPartition(0);
/** Fewer microtask turns per event: the crash test replays the move once per event. */
const quickScheduling = { microtaskTurns: 16 };

/** A manager with the partition's log in dir A holding `batches` flushed batches. */
async function withLogInA(
  harness: ManagerHarness,
  batches: number,
): Promise<{ manager: LogManager; bytes: Uint8Array }> {
  const manager = await harness.start();
  const log = await harness.logOf(manager, partition, { logDir: dirA });
  await harness.run(appendBatches(log, "before", batches).then(() => log.flush()));
  return { manager, bytes: await harness.run(readWholeLog(log)) };
}

async function moveToB(manager: LogManager): Promise<void> {
  assert.deepEqual(await manager.alterReplicaLogDir(partition, dirB), {
    kind: "moving",
    futureDir: dirB,
  });
  const replaced = await manager.replaceCurrentWithFutureLog(partition);
  assert.equal(replaced.kind, "replaced");
}

test("a replica moved between dirs keeps every record and offset", async () => {
  const harness = new ManagerHarness(91);
  const { manager } = await withLogInA(harness, 6);
  assert.deepEqual(await harness.run(manager.alterReplicaLogDir(partition, dirB)), {
    kind: "moving",
    futureDir: dirB,
  });
  // Appends go on while the future log catches up in the periodic work.
  const current = manager.getLog(partition);
  assert.ok(current.kind === "online");
  const work = await harness.run(manager.runPeriodicTasks(harness.node.clock.nowMs()));
  assert.ok(work.copiedBytes > 0);
  await harness.run(appendBatches(current.log, "during", 3));
  const expected = await harness.run(readWholeLog(current.log));
  const replaced = await harness.run(manager.replaceCurrentWithFutureLog(partition));
  assert.ok(replaced.kind === "replaced" && replaced.logDir === dirB);
  assert.equal(replaced.log.logEndOffset, 27);
  assert.deepEqual(await harness.run(readWholeLog(replaced.log)), expected);
  assert.equal(manager.logDirOf(partition), dirB);
  assert.equal(manager.getFutureLog(partition), undefined);
  assert.ok((harness.fs.peekDirectory(dirA) ?? []).some((name) => name.endsWith("-delete")));
  await harness.run(manager.shutdown());
  const restarted = await harness.start();
  const reloaded = restarted.getLog(partition);
  assert.ok(reloaded.kind === "online" && reloaded.logDir === dirB);
  assert.deepEqual(await harness.run(readWholeLog(reloaded.log)), expected);
});

test("moving a replica answers typed refusals", async () => {
  const harness = new ManagerHarness(92);
  const { manager } = await withLogInA(harness, 1);
  const alter = (targetDir: string, topicPartition = partition) =>
    harness.run(manager.alterReplicaLogDir(topicPartition, targetDir));
  assert.deepEqual(await alter("/elsewhere"), { kind: "unknownLogDir" });
  assert.deepEqual(await alter(dirA), { kind: "alreadyInDir" });
  assert.deepEqual(await alter(dirB, { topic: "none", partition: 0 }), {
    kind: "unknownPartition",
  });
  harness.fs.injectFault({ code: "EIO", path: dirB });
  await harness.run(manager.runPeriodicTasks(harness.node.clock.nowMs() + 30_000));
  assert.deepEqual(await alter(dirB), { kind: "targetDirOffline" });
});

/** The simulated events a whole move takes after the set-up of `withLogInA(…, 4)`. */
async function eventsOfMove(seed: number): Promise<number> {
  const harness = new ManagerHarness(seed, quickScheduling);
  const { manager } = await withLogInA(harness, 4);
  const before = harness.scheduler.eventCount;
  await harness.run(moveToB(manager));
  return harness.scheduler.eventCount - before;
}

test("a crash at any step of a move restarts to one complete copy of the log", async (context) => {
  const seed = 93;
  const eventCount = await eventsOfMove(seed);
  let promotedRuns = 0;
  for (let step = 0; step <= eventCount; step++) {
    const harness = new ManagerHarness(seed, quickScheduling);
    const { manager, bytes } = await withLogInA(harness, 4);
    moveToB(manager).catch(() => undefined);
    for (let event = 0; event < step; event++) await harness.scheduler.step();
    harness.crash();
    const restarted = await harness.start();
    if (harness.logger.lines.some((line) => line.includes("finished a replica move"))) {
      promotedRuns++;
    }
    const lookup = restarted.getLog(partition);
    assert.ok(lookup.kind === "online", `step ${step}: the partition has a current log`);
    const kept = await harness.run(readWholeLog(lookup.log));
    assert.deepEqual(kept, bytes, `step ${step}: every record is kept`);
    if (restarted.getFutureLog(partition) !== undefined || lookup.logDir === dirA) {
      // An interrupted move resumes (or starts again) and completes.
      await harness.run(moveToB(restarted));
      const moved = restarted.getLog(partition);
      assert.ok(moved.kind === "online" && moved.logDir === dirB);
      const after = await harness.run(readWholeLog(moved.log));
      assert.deepEqual(after, bytes, `step ${step}: after resuming`);
    }
  }
  context.diagnostic(`crashed at ${eventCount} steps, ${promotedRuns} between the renames`);
  assert.ok(eventCount > 10, `the move has many steps to crash in (${eventCount})`);
  // Some crash points fall between the two renames; start-up must finish those swaps.
  assert.ok(promotedRuns > 0, "a crash between the renames is covered");
});
