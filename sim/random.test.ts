import { test } from "node:test";
import assert from "node:assert/strict";
import { fnv1a64Hex } from "./hash.js";
import { SeededRandom } from "./random.js";

const draw = (random: SeededRandom, count: number): number[] =>
  Array.from({ length: count }, () => random.nextUint32());

test("FNV-1a 64 matches the published test vectors", () => {
  assert.equal(fnv1a64Hex(""), "cbf29ce484222325");
  assert.equal(fnv1a64Hex("a"), "af63dc4c8601ec8c");
  assert.equal(fnv1a64Hex("foobar"), "85944171f73967e8");
});

test("the same seed gives the same numbers and another seed other numbers", () => {
  assert.deepEqual(draw(new SeededRandom(42), 100), draw(new SeededRandom(42), 100));
  assert.notDeepEqual(draw(new SeededRandom(42), 100), draw(new SeededRandom(43), 100));
});

test("a fork depends on the seed and label only, not on draws made before it", () => {
  const used = new SeededRandom(7);
  draw(used, 10);
  const fresh = new SeededRandom(7);
  assert.deepEqual(draw(used.fork("disk"), 20), draw(fresh.fork("disk"), 20));
  assert.notDeepEqual(draw(fresh.fork("disk"), 20), draw(fresh.fork("net"), 20));
  assert.notDeepEqual(draw(fresh.fork("disk"), 20), draw(fresh, 20));
  assert.equal(fresh.fork("a").fork("b").label, "a/b");
});

test("bounded draws stay in bounds and cover their range", () => {
  const random = new SeededRandom(3);
  const seen = new Set<number>();
  for (let index = 0; index < 5000; index++) {
    const value = random.between(-3, 3);
    assert.ok(value >= -3 && value <= 3);
    seen.add(value);
    const float = random.nextFloat();
    assert.ok(float >= 0 && float < 1);
  }
  assert.equal(seen.size, 7);
  assert.equal(random.chance(0), false);
  assert.equal(random.chance(1), true);
  assert.throws(() => random.nextInt(0));
  assert.throws(() => random.pick([]));
});

test("draws are spread evenly enough for simulation", () => {
  const random = new SeededRandom(11);
  const buckets = new Array<number>(10).fill(0);
  for (let index = 0; index < 100_000; index++) {
    const bucket = random.nextInt(10);
    buckets[bucket] = (buckets[bucket] ?? 0) + 1;
  }
  // Each bucket expects 10,000; 600 is about six standard deviations, and the seed is fixed.
  for (const count of buckets) assert.ok(Math.abs(count - 10_000) < 600, `bucket ${count}`);
  const bytes = random.fill(new Uint8Array(7));
  assert.ok(bytes.some((byte) => byte !== 0));
});
