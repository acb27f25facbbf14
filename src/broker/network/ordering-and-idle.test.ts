import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { IdleConnections } from "./idle-connections.js";
import { ResponseSequence } from "./response-sequence.js";

test("responses are taken in slot order whatever order they are filled in", () => {
  fc.assert(
    fc.property(
      fc
        .integer({ min: 1, max: 40 })
        .chain((count) =>
          fc.tuple(
            fc.constant(count),
            fc.shuffledSubarray([...Array(count).keys()], { minLength: count }),
          ),
        ),
      ([count, fillOrder]) => {
        const sequence = new ResponseSequence<number>();
        for (let index = 0; index < count; index++) assert.equal(sequence.open(), index);
        const taken: number[] = [];
        for (const slot of fillOrder) {
          sequence.fill(slot, slot);
          taken.push(...sequence.takeReady());
          assert.equal(sequence.inFlightCount, count - taken.length);
        }
        assert.deepEqual(taken, [...Array(count).keys()]);
      },
    ),
    { seed: 7, numRuns: 200 },
  );
});

test("the quietest connection comes first and a touch moves it to the back", () => {
  const idle = new IdleConnections<string>(100);
  idle.touch("a", 0);
  idle.touch("b", 10);
  idle.touch("c", 20);
  assert.equal(idle.nextDeadlineMs(), 100);
  idle.touch("a", 50);
  assert.equal(idle.nextDeadlineMs(), 110);
  assert.deepEqual(idle.idleAt(120), ["b", "c"]);
  idle.remove("b");
  idle.remove("c");
  assert.deepEqual(idle.idleAt(149), []);
  assert.deepEqual(idle.idleAt(150), ["a"]);
});
