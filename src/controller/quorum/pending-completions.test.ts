import assert from "node:assert/strict";
import { test } from "node:test";
import { AssertionError } from "../../common/index.js";
import { PendingCompletions } from "./pending-completions.js";

/** Adds an answer waiting for `offset` that records its outcome in `outcomes`. */
function addWaiting(pending: PendingCompletions, offset: number, outcomes: string[]): void {
  pending.add({
    offset,
    complete: () => outcomes.push(`complete ${offset}`),
    fail: () => outcomes.push(`fail ${offset}`),
  });
}

test("a commit completes the answers at or below its offset, in the order they came", () => {
  const pending = new PendingCompletions();
  const outcomes: string[] = [];
  for (const offset of [3, 3, 5, 8]) addWaiting(pending, offset, outcomes);
  assert.equal(pending.completeThrough(2), 0);
  assert.equal(pending.completeThrough(5), 3);
  assert.deepEqual(outcomes, ["complete 3", "complete 3", "complete 5"]);
  assert.equal(pending.size, 1);
});

test("losing leadership fails every waiting answer once", () => {
  const pending = new PendingCompletions();
  const outcomes: string[] = [];
  for (const offset of [1, 2]) addWaiting(pending, offset, outcomes);
  assert.equal(pending.failAll(), 2);
  assert.equal(pending.completeThrough(10), 0);
  assert.deepEqual(outcomes, ["fail 1", "fail 2"]);
});

test("an answer may not wait for an offset below one added before it", () => {
  const pending = new PendingCompletions();
  addWaiting(pending, 5, []);
  assert.throws(() => addWaiting(pending, 4, []), AssertionError);
});
