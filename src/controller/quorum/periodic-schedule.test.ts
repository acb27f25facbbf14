import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_LEADER_REBALANCE_SETTINGS } from "../election/index.js";
import type { LeaderRebalanceSettings } from "../election/index.js";
import { PeriodicSchedule } from "./periodic-schedule.js";

const INTERVAL_MS = DEFAULT_LEADER_REBALANCE_SETTINGS.leaderImbalanceCheckIntervalSeconds * 1000;

function activeSchedule(settings: Partial<LeaderRebalanceSettings> = {}): PeriodicSchedule {
  const schedule = new PeriodicSchedule({ ...DEFAULT_LEADER_REBALANCE_SETTINGS, ...settings });
  schedule.activated(1000);
  return schedule;
}

test("a liveness scan is due on every tick, but not while the last one is queued", () => {
  const schedule = activeSchedule();
  assert.equal(schedule.dueOnTick(2000).scan, true);
  assert.equal(schedule.dueOnTick(3000).scan, false, "the first scan is still queued");
  schedule.scanEnded();
  assert.equal(schedule.dueOnTick(4000).scan, true);
});

test("the first rebalance is due one check interval after activation", () => {
  const schedule = activeSchedule();
  assert.equal(schedule.dueOnTick(1000 + INTERVAL_MS - 1).rebalance, false);
  assert.equal(schedule.dueOnTick(1000 + INTERVAL_MS).rebalance, true);
});

test("no rebalance is due before the controller was activated", () => {
  const schedule = new PeriodicSchedule(DEFAULT_LEADER_REBALANCE_SETTINGS);
  assert.equal(schedule.dueOnTick(10 * INTERVAL_MS).rebalance, false);
});

test("the next rebalance is due one interval after the last was queued, once it ended", () => {
  const schedule = activeSchedule();
  const queuedAtMs = 1000 + INTERVAL_MS + 500;
  assert.equal(schedule.dueOnTick(queuedAtMs).rebalance, true);
  assert.equal(schedule.dueOnTick(queuedAtMs + INTERVAL_MS).rebalance, false, "still queued");
  schedule.rebalanceEnded();
  schedule.rebalanceChecked({ kind: "checked", hasMore: false, elections: 3 });
  assert.equal(schedule.dueOnTick(queuedAtMs + INTERVAL_MS - 1).rebalance, false);
  assert.equal(schedule.dueOnTick(queuedAtMs + INTERVAL_MS).rebalance, true);
});

test("a rebalance cut short by the cap is due again on the next tick", () => {
  const schedule = activeSchedule();
  const queuedAtMs = 1000 + INTERVAL_MS;
  assert.equal(schedule.dueOnTick(queuedAtMs).rebalance, true);
  schedule.rebalanceEnded();
  schedule.rebalanceChecked({ kind: "checked", hasMore: true, elections: 1000 });
  assert.equal(schedule.dueOnTick(queuedAtMs + 1000).rebalance, true);
});

test("a refused rebalance waits for the next interval", () => {
  const schedule = activeSchedule();
  const queuedAtMs = 1000 + INTERVAL_MS;
  assert.equal(schedule.dueOnTick(queuedAtMs).rebalance, true);
  schedule.rebalanceEnded();
  schedule.rebalanceChecked({ kind: "refused", errorCode: 41 });
  assert.equal(schedule.dueOnTick(queuedAtMs + 1000).rebalance, false);
  assert.equal(schedule.dueOnTick(queuedAtMs + INTERVAL_MS).rebalance, true);
});

test("no rebalance is ever due while auto.leader.rebalance.enable is off", () => {
  const schedule = activeSchedule({ autoLeaderRebalanceEnable: false });
  for (let ticks = 1; ticks <= 3; ticks++) {
    assert.equal(schedule.dueOnTick(ticks * 10 * INTERVAL_MS).rebalance, false);
  }
});
