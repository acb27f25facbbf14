import { test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError } from "../common/index.js";
import { CryptoRandom } from "./crypto-random.js";
import { NodeTimers } from "./node-timers.js";
import { SystemClock } from "./system-clock.js";

test("the system clock reads wall time and a monotonic time that never goes back", () => {
  const clock = new SystemClock();
  const before = Date.now();
  const wall = clock.nowMs();
  assert.ok(wall >= before && wall <= Date.now());
  let previous = clock.monotonicMs();
  for (let index = 0; index < 1000; index++) {
    const current = clock.monotonicMs();
    assert.ok(current >= previous);
    previous = current;
  }
});

test("a scheduled timer fires and a cancelled one does not", async () => {
  // An unreferenced timer would let the test process end before it fires.
  const timers = new NodeTimers({ unref: false });
  const fired: string[] = [];
  const cancelled = timers.schedule(1, () => fired.push("cancelled"));
  cancelled.cancel();
  cancelled.cancel();
  // Node runs timers in order of due time, so by the time the later timer fires the cancelled
  // one would have fired too.
  await new Promise<void>((resolve) =>
    timers.schedule(5, () => {
      fired.push("kept");
      resolve();
    }),
  );
  assert.deepEqual(fired, ["kept"]);
});

test("crypto random numbers stay inside their bounds", () => {
  const random = new CryptoRandom();
  for (let index = 0; index < 5000; index++) {
    const value = random.nextUint32();
    assert.ok(Number.isInteger(value) && value >= 0 && value < 2 ** 32);
    const float = random.nextFloat();
    assert.ok(float >= 0 && float < 1);
    const bounded = random.nextInt(7);
    assert.ok(Number.isInteger(bounded) && bounded >= 0 && bounded < 7);
  }
  assert.equal(random.nextInt(1), 0);
  assert.throws(() => random.nextInt(0), AssertionError);
  assert.throws(() => random.nextInt(1.5), AssertionError);
});

test("crypto random covers every value of a small range and fills buffers", () => {
  const random = new CryptoRandom();
  const seen = new Set<number>();
  for (let index = 0; index < 2000; index++) seen.add(random.nextInt(10));
  assert.equal(seen.size, 10);
  const buffer = random.fill(new Uint8Array(4096));
  // 4096 random bytes that are all zero happen with probability 2^-32768.
  assert.ok(buffer.some((byte) => byte !== 0));
});
