import { test } from "node:test";
import assert from "node:assert/strict";
import { SegmentList, isCoveredBy } from "./segment-list.js";

test("floor finds the segment holding an offset and range follows it", () => {
  const list = new SegmentList([{ baseOffset: 20 }, { baseOffset: 0 }, { baseOffset: 10 }]);
  assert.equal(list.floor(15)?.baseOffset, 10);
  assert.equal(list.floor(20)?.baseOffset, 20);
  assert.equal(list.floor(-1), undefined);
  assert.deepEqual(
    list.range(12, 20).map((segment) => segment.baseOffset),
    [10],
  );
  assert.deepEqual(
    list.range(12, 21).map((segment) => segment.baseOffset),
    [10, 20],
  );
  assert.equal(list.active.baseOffset, 20);
});

test("a list never loses its last segment", () => {
  const only = { baseOffset: 0 };
  const list = new SegmentList([only]);
  assert.throws(() => list.remove([only]));
  list.push({ baseOffset: 5 });
  list.remove([only]);
  assert.equal(list.first.baseOffset, 5);
});

test("a run of inactive segments is found only whole, in order and without the active one", () => {
  const list = new SegmentList([0, 10, 20, 30].map((baseOffset) => ({ baseOffset })));
  const bases = (run: readonly { baseOffset: number }[] | undefined) =>
    run?.map((segment) => segment.baseOffset);
  assert.deepEqual(bases(list.inactiveRunAt([10, 20])), [10, 20]);
  assert.equal(list.inactiveRunAt([10, 30]), undefined);
  assert.equal(list.inactiveRunAt([20, 10]), undefined);
  assert.equal(list.inactiveRunAt([20, 30]), undefined);
  assert.equal(list.inactiveRunAt([5]), undefined);
  assert.equal(list.inactiveRunAt([]), undefined);
});

test("cleaned segments cover old ones when they start there and end no later", () => {
  const segment = (baseOffset: number, nextOffset: number) => ({ baseOffset, nextOffset });
  const old = [segment(10, 20), segment(20, 30)];
  assert.equal(isCoveredBy([segment(10, 30)], old), true);
  assert.equal(isCoveredBy([segment(10, 15), segment(20, 25)], old), true);
  assert.equal(isCoveredBy([segment(10, 31)], old), false);
  assert.equal(isCoveredBy([segment(11, 30)], old), false);
  assert.equal(isCoveredBy([], old), false);
});
