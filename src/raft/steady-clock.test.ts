import { test } from "node:test";
import assert from "node:assert/strict";
import { steadyClock } from "./steady-clock.js";

test("the Raft clock follows monotonic time when the wall clock is stepped back", () => {
  let wallMs = 1_700_000_000_000;
  let monotonicMs = 50;
  const clock = steadyClock({ nowMs: () => wallMs, monotonicMs: () => monotonicMs });
  assert.equal(clock.nowMs(), 1_700_000_000_000);
  monotonicMs += 1000;
  wallMs -= 3_600_000;
  assert.equal(clock.nowMs(), 1_700_000_001_000);
  assert.equal(clock.monotonicMs(), 1050);
});

test("the Raft clock gives whole milliseconds from a monotonic clock with fractions", () => {
  let monotonicMs = 10.25;
  const clock = steadyClock({ nowMs: () => 1_000, monotonicMs: () => monotonicMs });
  monotonicMs = 12.9;
  assert.equal(clock.nowMs(), 1_002);
});
