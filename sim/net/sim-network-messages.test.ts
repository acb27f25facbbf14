import { test } from "node:test";
import assert from "node:assert/strict";
import { Scheduler } from "../scheduler.js";
import type { LinkSettings } from "./links.js";
import { SimNetwork } from "./sim-network.js";

interface Received {
  readonly value: number;
  readonly from: string;
  readonly atMs: number;
}

/** Sends `count` numbered messages a→b, one per ms, and collects what b receives. */
async function exchange(settings: Partial<LinkSettings>, count: number, seed = 1) {
  const scheduler = new Scheduler({ seed });
  const network = new SimNetwork<number>(scheduler, { links: settings });
  scheduler.node("a");
  const received: Received[] = [];
  network.onMessage("b", (value, from) => received.push({ value, from, atMs: scheduler.nowMs() }));
  for (let value = 0; value < count; value++) {
    scheduler.schedule(value, () => network.send("a", "b", value));
  }
  await scheduler.runUntilIdle();
  return { received, network, values: received.map((entry) => entry.value) };
}

test("a reliable link delivers every message once, in order, within its delay", async () => {
  const { received, values } = await exchange({ delayMinMs: 3, delayMaxMs: 9 }, 200);
  assert.deepEqual(values, [...Array(200).keys()]);
  for (const entry of received) {
    assert.equal(entry.from, "a");
    // FIFO order may hold a message behind an earlier, slower one, never beyond its maximum.
    assert.ok(entry.atMs - entry.value >= 3 && entry.atMs - entry.value <= 9);
  }
});

test("drop loses some messages and never invents any", async () => {
  const { values, network } = await exchange({ dropProbability: 0.3 }, 500);
  assert.ok(values.length > 250 && values.length < 450, `${values.length} delivered`);
  assert.equal(new Set(values).size, values.length);
  assert.deepEqual(
    values,
    [...values].sort((left, right) => left - right),
  );
  assert.equal(network.messageStats.dropped, 500 - values.length);
});

test("duplicate delivers some messages twice", async () => {
  const { values, network } = await exchange({ duplicateProbability: 0.2 }, 500);
  const duplicates = values.length - new Set(values).size;
  assert.ok(duplicates > 50 && duplicates < 150, `${duplicates} duplicates`);
  assert.equal(duplicates, network.messageStats.duplicated);
  assert.equal(new Set(values).size, 500);
});

test("reorder takes some messages out of order and still delivers all", async () => {
  const settings = { delayMinMs: 1, delayMaxMs: 1, reorderProbability: 0.3, reorderWindowMs: 30 };
  const { values } = await exchange(settings, 300);
  assert.deepEqual(
    [...values].sort((left, right) => left - right),
    [...Array(300).keys()],
  );
  const inversions = values.filter((value, index) => index > 0 && value < (values[index - 1] ?? 0));
  assert.ok(inversions.length > 10, `${inversions.length} inversions`);
});

test("a one-way cut drops messages that way only, until healed", async () => {
  const scheduler = new Scheduler({ seed: 2 });
  const network = new SimNetwork<string>(scheduler);
  const inbox: string[] = [];
  network.onMessage("a", (message, from) => inbox.push(`${from}:${message}`));
  network.onMessage("b", (message, from) => inbox.push(`${from}:${message}`));
  network.cut("a", "b");
  network.send("a", "b", "lost");
  network.send("b", "a", "through");
  await scheduler.runUntilIdle();
  assert.deepEqual(inbox, ["b:through"]);
  network.heal("a", "b");
  network.send("a", "b", "in flight");
  // Cut and healed before it arrives: only the state at arrival matters.
  network.cut("a", "b");
  network.heal("a", "b");
  network.send("a", "b", "after heal");
  await scheduler.runUntilIdle();
  assert.deepEqual(inbox, ["b:through", "a:in flight", "a:after heal"]);
  network.send("a", "b", "cut before arrival");
  network.cut("a", "b");
  await scheduler.runUntilIdle();
  assert.equal(inbox.length, 3);
  network.partition(["a"], ["b"]);
  network.send("b", "a", "partitioned");
  network.healAll();
  network.send("b", "a", "healed");
  await scheduler.runUntilIdle();
  assert.deepEqual(inbox.slice(3), ["b:healed"]);
});

test("a crashed node sends nothing and receives nothing", async () => {
  const scheduler = new Scheduler({ seed: 3 });
  const network = new SimNetwork<string>(scheduler);
  const inbox: string[] = [];
  network.onMessage("b", (message) => inbox.push(message));
  network.send("a", "b", "in flight to a node that crashes");
  scheduler.node("b").crash();
  network.send("b", "a", "from the dead");
  await scheduler.runUntilIdle();
  scheduler.node("b").restart();
  network.send("a", "b", "no handler yet");
  await scheduler.runUntilIdle();
  network.onMessage("b", (message) => inbox.push(message));
  network.send("a", "b", "after restart");
  await scheduler.runUntilIdle();
  assert.deepEqual(inbox, ["after restart"]);
  assert.equal(network.messageStats.dropped, 3);
});
