import { test } from "node:test";
import assert from "node:assert/strict";
import { SimulatedCrash } from "../memory-file-system.test-support.js";
import type { LogManager } from "./log-manager.driver.js";
import {
  appendBatches,
  DIR_A,
  DIR_B,
  newKit,
  readWholeLog,
  startManager,
  TOPIC_ID,
  type Kit,
} from "./log-manager-test-kit.test-support.js";

const PARTITION = { topic: "orders", partition: 0 };

/** A manager with the partition's log in dir A holding `batches` flushed batches. */
async function withLogInA(
  kit: Kit,
  batches: number,
): Promise<{ manager: LogManager; bytes: Uint8Array }> {
  const manager = await startManager(kit);
  const created = await manager.getOrCreateLog(PARTITION, { topicId: TOPIC_ID, logDir: DIR_A });
  assert.ok(created.kind === "log");
  await appendBatches(created.log, "before", batches);
  await created.log.flush();
  return { manager, bytes: await readWholeLog(created.log) };
}

async function moveToB(manager: LogManager): Promise<void> {
  assert.deepEqual(await manager.alterReplicaLogDir(PARTITION, DIR_B), {
    kind: "moving",
    futureDir: DIR_B,
  });
  const replaced = await manager.replaceCurrentWithFutureLog(PARTITION);
  assert.equal(replaced.kind, "replaced");
}

test("a replica moved between dirs keeps every record and offset", async () => {
  const kit = newKit();
  const { manager } = await withLogInA(kit, 6);
  assert.deepEqual(await manager.alterReplicaLogDir(PARTITION, DIR_B), {
    kind: "moving",
    futureDir: DIR_B,
  });
  // Appends go on while the future log catches up in the periodic work.
  const current = manager.getLog(PARTITION);
  assert.ok(current.kind === "online");
  const work = await manager.runPeriodicTasks(kit.clock.currentMs);
  assert.ok(work.copiedBytes > 0);
  await appendBatches(current.log, "during", 3);
  const expected = await readWholeLog(current.log);
  const replaced = await manager.replaceCurrentWithFutureLog(PARTITION);
  assert.ok(replaced.kind === "replaced" && replaced.logDir === DIR_B);
  assert.equal(replaced.log.logEndOffset, 27);
  assert.deepEqual(await readWholeLog(replaced.log), expected);
  assert.equal(manager.logDirOf(PARTITION), DIR_B);
  assert.equal(manager.getFutureLog(PARTITION), undefined);
  assert.ok((await kit.memory.readdir(DIR_A)).some((name) => name.endsWith("-delete")));
  await manager.shutdown();
  const restarted = await startManager(kit);
  const reloaded = restarted.getLog(PARTITION);
  assert.ok(reloaded.kind === "online" && reloaded.logDir === DIR_B);
  assert.deepEqual(await readWholeLog(reloaded.log), expected);
});

test("moving a replica answers typed refusals", async () => {
  const kit = newKit();
  const { manager } = await withLogInA(kit, 1);
  assert.deepEqual(await manager.alterReplicaLogDir(PARTITION, "/elsewhere"), {
    kind: "unknownLogDir",
  });
  assert.deepEqual(await manager.alterReplicaLogDir(PARTITION, DIR_A), { kind: "alreadyInDir" });
  assert.deepEqual(await manager.alterReplicaLogDir({ topic: "none", partition: 0 }, DIR_B), {
    kind: "unknownPartition",
  });
  kit.fileSystem.failUnder(DIR_B);
  await manager.runPeriodicTasks(kit.clock.currentMs + 30_000);
  assert.deepEqual(await manager.alterReplicaLogDir(PARTITION, DIR_B), {
    kind: "targetDirOffline",
  });
});

test("a crash at any step of a move restarts to one complete copy of the log", async (context) => {
  let crashedRuns = 0;
  let promotedRuns = 0;
  for (let step = 0; ; step++) {
    const kit = newKit();
    const { manager, bytes } = await withLogInA(kit, 4);
    kit.memory.crashBeforeOperation = kit.memory.operationCount + step;
    let didCrash = false;
    try {
      await moveToB(manager);
    } catch (error) {
      if (!(error instanceof SimulatedCrash)) throw error;
      didCrash = true;
    }
    kit.memory.crash();
    const restarted = await startManager(kit);
    const promoted = kit.logger.lines.some((line) => line.message.startsWith("finished a replica"));
    if (promoted) promotedRuns++;
    const lookup = restarted.getLog(PARTITION);
    assert.ok(lookup.kind === "online", `step ${step}: the partition has a current log`);
    assert.deepEqual(await readWholeLog(lookup.log), bytes, `step ${step}: every record is kept`);
    if (restarted.getFutureLog(PARTITION) !== undefined || lookup.logDir === DIR_A) {
      // An interrupted move resumes (or starts again) and completes.
      await moveToB(restarted);
      const moved = restarted.getLog(PARTITION);
      assert.ok(moved.kind === "online" && moved.logDir === DIR_B);
      assert.deepEqual(await readWholeLog(moved.log), bytes, `step ${step}: after resuming`);
    }
    if (!didCrash) break;
    crashedRuns++;
  }
  context.diagnostic(`crashed at ${crashedRuns} steps, ${promotedRuns} between the renames`);
  assert.ok(crashedRuns > 10, `the move has many steps to crash in (${crashedRuns})`);
  // Some crash points fall between the two renames; start-up must finish those swaps.
  assert.ok(promotedRuns > 0, "a crash between the renames is covered");
});
