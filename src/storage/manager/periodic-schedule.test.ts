import { test } from "node:test";
import assert from "node:assert/strict";
import { PeriodicSchedule } from "./periodic-schedule.js";

test("tasks first run after the initial delay and then once per interval", () => {
  const schedule = new PeriodicSchedule({ flush: 1000, checkpoint: 5000 }, 0, 30_000);
  assert.deepEqual(schedule.takeDue(29_999), []);
  assert.deepEqual(schedule.takeDue(30_000), ["flush", "checkpoint"]);
  assert.deepEqual(schedule.takeDue(30_999), []);
  assert.deepEqual(schedule.takeDue(31_000), ["flush"]);
  assert.equal(schedule.nextDueAtMs(), 32_000);
  assert.deepEqual(schedule.takeDue(35_000), ["flush", "checkpoint"]);
});

test("a late call runs a task once, not once per missed interval", () => {
  const schedule = new PeriodicSchedule({ flush: 1000 }, 0, 0);
  assert.deepEqual(schedule.takeDue(10_500), ["flush"]);
  assert.deepEqual(schedule.takeDue(11_000), []);
  assert.deepEqual(schedule.takeDue(11_500), ["flush"]);
});

test("an interval of Kafka's Long.MAX_VALUE never runs", () => {
  const schedule = new PeriodicSchedule({ never: Number.MAX_SAFE_INTEGER, often: 10 }, 0, 0);
  assert.deepEqual(schedule.takeDue(1e12), ["often"]);
  assert.equal(schedule.nextDueAtMs(), 1e12 + 10);
});
