import { test } from "node:test";
import assert from "node:assert/strict";
import { ManualClock } from "./clock.js";
import { fnv1a64Hex } from "./hash.js";
import { Trace } from "./trace.js";

test("the trace hash covers every line and its order", () => {
  const first = new Trace();
  const second = new Trace();
  const swapped = new Trace();
  for (const line of ["a", "b"]) first.record(line);
  for (const line of ["a", "b"]) second.record(line);
  for (const line of ["b", "a"]) swapped.record(line);
  assert.equal(first.traceHash(), second.traceHash());
  assert.notEqual(first.traceHash(), swapped.traceHash());
  assert.equal(first.traceHash(), fnv1a64Hex("a\nb\n"));
  assert.equal(first.lineCount, 2);
});

test("a trace keeps only its latest lines unless asked to keep all", () => {
  const bounded = new Trace({ recentLinesMax: 3 });
  const complete = new Trace({ keepAll: true });
  for (let index = 0; index < 10; index++) {
    bounded.record(`line ${index}`);
    complete.record(`line ${index}`);
  }
  assert.deepEqual(bounded.recentLines(), ["line 7", "line 8", "line 9"]);
  assert.equal(bounded.allLines(), undefined);
  assert.equal(complete.allLines()?.length, 10);
  assert.equal(bounded.traceHash(), complete.traceHash());
});

test("a manual clock moves only forward and only when told", () => {
  const clock = new ManualClock(1000);
  assert.equal(clock.nowMs(), 1000);
  assert.equal(clock.monotonicMs(), 0);
  clock.advanceBy(5);
  clock.advanceTo(7);
  assert.equal(clock.nowMs(), 1007);
  assert.throws(() => clock.advanceTo(6));
});
