import { test } from "node:test";
import assert from "node:assert/strict";
import { SegmentList } from "./segment-list.js";

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
