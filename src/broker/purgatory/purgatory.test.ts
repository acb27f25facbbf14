import { test } from "node:test";
import assert from "node:assert/strict";
import type { DelayedOperation } from "./delayed-operation.js";
import { ManualTime } from "./manual-time.test-support.js";
import { DelayedOperationPurgatory } from "./purgatory.driver.js";

/** An operation that completes when `isReady()` says so and records what happened to it. */
function operation(delayMs: number, isReady: () => boolean, log: string[], name: string) {
  const op: DelayedOperation & { completions: number; expirations: number } = {
    delayMs,
    completions: 0,
    expirations: 0,
    tryComplete: () => isReady(),
    onComplete: () => {
      op.completions++;
      log.push(`complete ${name}`);
    },
    onExpiration: () => {
      op.expirations++;
      log.push(`expire ${name}`);
    },
  };
  return op;
}

function setup(purgeInterval = 1000) {
  const time = new ManualTime();
  const purgatory = new DelayedOperationPurgatory(
    { clock: time, timers: time },
    { name: "Test", purgeInterval },
  );
  return { time, purgatory, log: [] as string[] };
}

test("an operation that can complete at once completes without being watched", () => {
  const { time, purgatory, log } = setup();
  const op = operation(100, () => true, log, "a");
  assert.equal(purgatory.tryCompleteElseWatch(op, ["t-0"]), true);
  assert.deepEqual(log, ["complete a"]);
  assert.equal(purgatory.pendingCount, 0);
  assert.equal(purgatory.watchedCount("t-0"), 0);
  assert.equal(time.scheduledCount, 0);
});

test("a wake-up of a watch key completes the operations that can, in the order added", () => {
  const { purgatory, log } = setup();
  let isReady = false;
  purgatory.tryCompleteElseWatch(
    operation(100, () => isReady, log, "a"),
    ["t-0", "t-1"],
  );
  purgatory.tryCompleteElseWatch(
    operation(100, () => isReady, log, "b"),
    ["t-1"],
  );
  purgatory.tryCompleteElseWatch(
    operation(100, () => false, log, "c"),
    ["t-1"],
  );
  assert.equal(purgatory.checkAndComplete("t-1"), 0);
  isReady = true;
  assert.equal(purgatory.checkAndComplete("t-2"), 0, "an unrelated key wakes nothing");
  assert.equal(purgatory.checkAndComplete("t-1"), 2);
  assert.deepEqual(log, ["complete a", "complete b"]);
  assert.equal(purgatory.pendingCount, 1);
  assert.equal(purgatory.watchedCount("t-1"), 1, "the woken list drops completed entries");
  assert.equal(purgatory.checkAndComplete("t-0"), 0, "a completes only once");
});

test("deadlines expire in order with a single timer, not one per operation", () => {
  const { time, purgatory, log } = setup();
  const delays = [50, 10, 30, 10, 70, 20, 60, 40];
  delays.forEach((delayMs, index) => {
    purgatory.tryCompleteElseWatch(
      operation(delayMs, () => false, log, `${index}`),
      ["k"],
    );
  });
  time.advance(100);
  const expired = log.filter((line) => line.startsWith("expire")).map((line) => line.slice(7));
  assert.deepEqual(expired, ["1", "3", "5", "2", "7", "0", "6", "4"]);
  assert.equal(time.maxArmed, 1);
  assert.equal(purgatory.pendingCount, 0);
  assert.equal(purgatory.armedDeadlineMs, undefined);
  assert.ok(time.scheduledCount <= delays.length + 1);
});

test("an expired operation runs onComplete then onExpiration, once", () => {
  const { time, purgatory, log } = setup();
  const op = operation(10, () => false, log, "a");
  purgatory.tryCompleteElseWatch(op, ["k"]);
  time.advance(9);
  assert.deepEqual(log, []);
  time.advance(1);
  assert.deepEqual(log, ["complete a", "expire a"]);
  purgatory.checkAndComplete("k");
  time.advance(100);
  assert.equal(op.completions, 1);
  assert.equal(op.expirations, 1);
});

test("a wake-up racing the deadline completes each operation exactly once", () => {
  const { time, purgatory, log } = setup();
  let isReady = false;
  const first = operation(10, () => false, log, "first");
  const second = operation(10, () => isReady, log, "second");
  // When the first expires, its completion makes the second ready and wakes its key, while the
  // second's own deadline is due in the same timer run.
  first.onComplete = () => {
    first.completions++;
    log.push("complete first");
    isReady = true;
    purgatory.checkAndComplete("k");
  };
  purgatory.tryCompleteElseWatch(first, ["k"]);
  purgatory.tryCompleteElseWatch(second, ["k"]);
  time.advance(10);
  assert.equal(second.completions, 1);
  assert.equal(second.expirations, 0, "the wake-up won the race");
  assert.equal(first.completions, 1);
  assert.deepEqual(log, ["complete first", "complete second", "expire first"]);
});

test("an operation whose tryComplete wakes its own key completes once", () => {
  const { purgatory, log } = setup();
  let isReady = false;
  const op = operation(100, () => false, log, "a");
  let depth = 0;
  op.tryComplete = () => {
    depth++;
    if (depth === 2) purgatory.checkAndComplete("k");
    return isReady;
  };
  purgatory.tryCompleteElseWatch(op, ["k"]);
  isReady = true;
  purgatory.checkAndComplete("k");
  assert.equal(op.completions, 1);
});

test("an earlier deadline re-arms the timer; completed operations leave no timer behind", () => {
  const { time, purgatory, log } = setup();
  let isReady = false;
  purgatory.tryCompleteElseWatch(
    operation(100, () => isReady, log, "late"),
    ["k"],
  );
  assert.equal(purgatory.armedDeadlineMs, 100);
  purgatory.tryCompleteElseWatch(
    operation(20, () => isReady, log, "early"),
    ["k"],
  );
  assert.equal(purgatory.armedDeadlineMs, 20);
  assert.equal(time.armedCount, 1);
  isReady = true;
  purgatory.checkAndComplete("k");
  time.advance(200);
  assert.equal(time.armedCount, 0);
  assert.deepEqual(log, ["complete late", "complete early"]);
});

test("completed entries in other keys' lists are purged past the purge interval", () => {
  const { purgatory, log } = setup(10);
  for (let index = 0; index < 1000; index++) {
    let isReady = false;
    const op = operation(1000, () => isReady, log, `${index}`);
    purgatory.tryCompleteElseWatch(op, ["woken", "quiet"]);
    isReady = true;
    purgatory.checkAndComplete("woken");
    assert.ok(purgatory.watchedCount("quiet") <= 11, "stale watches stay bounded");
    assert.ok(purgatory.staleCount <= 22, "stale entries stay bounded");
  }
  assert.equal(purgatory.pendingCount, 0);
});

test("close expires every pending operation, and later ones expire at once", () => {
  const { time, purgatory, log } = setup();
  purgatory.tryCompleteElseWatch(
    operation(100, () => false, log, "a"),
    ["k"],
  );
  purgatory.tryCompleteElseWatch(
    operation(50, () => false, log, "b"),
    ["k"],
  );
  assert.equal(purgatory.close(), 2);
  assert.deepEqual(log, ["complete b", "expire b", "complete a", "expire a"]);
  assert.equal(time.armedCount, 0);
  purgatory.tryCompleteElseWatch(
    operation(100, () => false, log, "c"),
    ["k"],
  );
  assert.deepEqual(log.slice(4), ["complete c", "expire c"]);
  assert.equal(purgatory.pendingCount, 0);
});
