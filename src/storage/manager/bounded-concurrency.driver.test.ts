import { test } from "node:test";
import assert from "node:assert/strict";
import { mapWithConcurrency } from "./bounded-concurrency.driver.js";

test("no more than the bound run at once, and results keep the item order", async () => {
  let running = 0;
  let mostRunning = 0;
  const results = await mapWithConcurrency([5, 1, 4, 2, 3], 2, async (item) => {
    running++;
    mostRunning = Math.max(mostRunning, running);
    for (let turn = 0; turn < item; turn++) await Promise.resolve();
    running--;
    return item * 10;
  });
  assert.deepEqual(results, [50, 10, 40, 20, 30]);
  assert.equal(mostRunning, 2);
});

test("a failure is rethrown only after every item has been worked on", async () => {
  const seen: number[] = [];
  await assert.rejects(
    mapWithConcurrency([1, 2, 3], 1, async (item) => {
      seen.push(item);
      if (item === 1) throw new Error("first fails");
      return item;
    }),
    /first fails/,
  );
  assert.deepEqual(seen, [1, 2, 3]);
});
