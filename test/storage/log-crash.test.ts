import { test } from "node:test";
import assert from "node:assert/strict";
import { SeededRandom, loseAllUnsynced } from "../../sim/index.js";
import { NEVER, type PartitionLog } from "../../src/storage/index.js";
import { LogHarness, makeBatch, readAll, testConfig } from "./log-harness.js";

/** How many seeds the crash property runs (npm test runs this many). */
const crashSeeds = Number(process.env["SLUICE_CRASH_SEEDS"] ?? 300);

interface Workload {
  /** Every batch issued, in issue order: appends are serialised, so this is the log's order. */
  readonly issued: Uint8Array[];
  /** The offset below which an append or flush was acknowledged durable. */
  durableEnd: number;
  recoveryPointSeen: number;
}

/** Issues rounds of concurrent appends and occasional flushes until the node crashes. */
async function runWorkload(
  log: PartitionLog,
  random: SeededRandom,
  workload: Workload,
  isSyncEach: boolean,
): Promise<void> {
  for (let round = 0; round < 30; round++) {
    const appends: Promise<void>[] = [];
    for (let index = random.between(1, 4); index > 0; index--) {
      const batch = makeBatch({
        count: random.between(1, 4),
        tag: `r${round}-${index}`,
        timestamp: 1_000 + round,
      });
      workload.issued.push(batch);
      const append = log.appendAsLeader(batch, { leaderEpoch: 1 }).then((result) => {
        if (isSyncEach) workload.durableEnd = Math.max(workload.durableEnd, result.lastOffset + 1);
      });
      appends.push(append);
    }
    await Promise.all(appends);
    if (random.chance(0.2)) {
      const end = log.logEndOffset;
      await log.flush();
      workload.durableEnd = Math.max(workload.durableEnd, end);
    }
    workload.recoveryPointSeen = log.recoveryPoint;
  }
}

/** What the seeds exercised, so the property cannot pass by never crashing into anything. */
const exercised = { truncatedTails: 0, lostBatches: 0 };

async function crashAndCheck(seed: number): Promise<void> {
  // Fewer microtask turns per simulated event keep 300 seeds within seconds; every crash point
  // is still chosen by the seed.
  const harness = new LogHarness(seed, {}, { microtaskTurns: 16 });
  const random = new SeededRandom(seed, "workload");
  const isSyncEach = random.chance(0.5);
  const config = testConfig({
    segmentBytes: 700,
    indexIntervalBytes: 100,
    flushMessages: isSyncEach ? 1 : NEVER,
  });
  const log = await harness.open(config);
  const workload: Workload = { issued: [], durableEnd: 0, recoveryPointSeen: 0 };
  runWorkload(log, random, workload, isSyncEach).catch(() => undefined);
  await harness.scheduler.runFor(random.between(0, 400));
  const recoveryPoint = Math.min(workload.recoveryPointSeen, log.recoveryPoint);
  harness.crash();
  const reopened = await harness.open(config, { recoveryPoint, hadCleanShutdown: false });
  const batches = await readAll(harness, reopened);
  if (reopened.recoveryReport.truncatedBytes > 0) exercised.truncatedTails++;
  if (batches.length < workload.issued.length) exercised.lostBatches++;
  assert.ok(
    batches.length <= workload.issued.length,
    `seed ${seed}: no batch appears from nowhere`,
  );
  batches.forEach((batch, index) => {
    assert.deepEqual(
      batch.bytes,
      workload.issued[index],
      `seed ${seed}: batch ${index} is the one appended`,
    );
  });
  assert.ok(
    reopened.logEndOffset >= workload.durableEnd,
    `seed ${seed}: durable offsets survive (${reopened.logEndOffset} < ${workload.durableEnd})`,
  );
  assert.equal(
    reopened.logEndOffset,
    batches.length === 0 ? 0 : (batches[batches.length - 1]?.lastOffset ?? 0) + 1,
  );
  if (batches.length > 0) {
    const answer = reopened.endOffsetForEpoch(1);
    assert.deepEqual(
      answer,
      { epoch: 1, endOffset: reopened.logEndOffset },
      `seed ${seed}: epochs`,
    );
  }
  const next = await harness.run(
    reopened.appendAsLeader(makeBatch({ count: 1, tag: "after" }), { leaderEpoch: 2 }),
  );
  assert.equal(
    next.firstOffset,
    reopened.logEndOffset - 1,
    `seed ${seed}: the log takes appends after recovery`,
  );
}

test("after a crash the log is a prefix of the appends holding all that was flushed", async () => {
  for (let seed = 1; seed <= crashSeeds; seed++) await crashAndCheck(seed);
  if (crashSeeds >= 50) {
    assert.ok(exercised.truncatedTails > 0, "some crash tore a tail that recovery cut off");
    assert.ok(exercised.lostBatches > 0, "some crash lost unflushed batches");
  }
});

test("group commit shares fsyncs; each append is durable when it resolves", async () => {
  const harness = new LogHarness(77);
  const config = testConfig({ flushMessages: 1 });
  const log = await harness.open(config);
  const appendCount = 32;
  const syncsBefore = harness.syncCount;
  const results = await harness.run(
    Promise.all(
      Array.from({ length: appendCount }, (_unused, index) =>
        log.appendAsLeader(makeBatch({ count: 2, tag: `g${index}` }), { leaderEpoch: 0 }),
      ),
    ),
  );
  assert.equal(results.length, appendCount);
  assert.ok(
    log.flushCount < appendCount,
    `${log.flushCount} flush rounds for ${appendCount} appends`,
  );
  assert.ok(
    harness.syncCount - syncsBefore < appendCount,
    `${harness.syncCount - syncsBefore} fsyncs`,
  );
  assert.ok(log.flushCount >= 1);
  harness.fs.crashOptions = loseAllUnsynced;
  harness.crash();
  const reopened = await harness.open(config, { recoveryPoint: 0, hadCleanShutdown: false });
  assert.equal(
    reopened.logEndOffset,
    appendCount * 2,
    "every acknowledged append survives the crash",
  );
});
