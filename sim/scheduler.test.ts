import { test } from "node:test";
import assert from "node:assert/strict";
import { Scheduler } from "./scheduler.js";
import { settle } from "./settle.js";

/** Ten events due at the same time, each recording its name; resolves to the order they ran. */
async function simultaneousOrder(seed: number): Promise<string> {
  const scheduler = new Scheduler({ seed });
  const order: string[] = [];
  for (let index = 0; index < 10; index++) scheduler.schedule(5, () => order.push(`e${index}`));
  await scheduler.runUntilIdle();
  return order.join(",");
}

/** A small async workload whose trace hash summarises what ran and when. */
async function traceHashOf(seed: number): Promise<string> {
  const scheduler = new Scheduler({ seed });
  for (const name of ["a", "b", "c"]) {
    const node = scheduler.node(name);
    const loop = async (): Promise<void> => {
      for (let round = 0; round < 20; round++) {
        await new Promise<void>((resolve) =>
          node.timers.schedule(node.random.between(0, 3), resolve),
        );
        scheduler.record(`${name} round ${round}`);
      }
    };
    void loop();
  }
  await scheduler.runUntilIdle();
  return scheduler.traceHash();
}

test("one seed replays the same trace and other seeds interleave differently", async () => {
  assert.equal(await traceHashOf(1), await traceHashOf(1));
  const hashes = new Set<string>();
  for (let seed = 1; seed <= 10; seed++) hashes.add(await traceHashOf(seed));
  assert.equal(hashes.size, 10);
});

test("events due at the same time run in an order the seed decides", async () => {
  assert.equal(await simultaneousOrder(5), await simultaneousOrder(5));
  const orders = new Set<string>();
  for (let seed = 1; seed <= 20; seed++) orders.add(await simultaneousOrder(seed));
  assert.ok(orders.size > 10, "different seeds explore different orders");
});

test("events run in time order and the clock jumps to each event", async () => {
  const scheduler = new Scheduler({ seed: 1 });
  const seen: Array<[string, number]> = [];
  scheduler.schedule(30, () => seen.push(["late", scheduler.nowMs()]));
  scheduler.schedule(10, () => {
    seen.push(["early", scheduler.nowMs()]);
    scheduler.schedule(5, () => seen.push(["nested", scheduler.nowMs()]));
  });
  const cancelled = scheduler.schedule(20, () => seen.push(["cancelled", 0]));
  cancelled.cancel();
  await scheduler.runFor(25);
  assert.deepEqual(seen, [
    ["early", 10],
    ["nested", 15],
  ]);
  assert.equal(scheduler.nowMs(), 25, "runFor leaves the clock at its end");
  assert.equal(await scheduler.step(), true);
  assert.deepEqual(seen.at(-1), ["late", 30]);
  assert.equal(await scheduler.step(), false);
  assert.equal(scheduler.clock.nowMs() - scheduler.clock.monotonicMs(), 1_704_067_200_000);
});

test("runUntil stops when the predicate holds or at the deadline", async () => {
  const scheduler = new Scheduler({ seed: 1 });
  let count = 0;
  const tick = (): void => {
    count += 1;
    scheduler.schedule(10, tick);
  };
  scheduler.schedule(10, tick);
  assert.equal(await scheduler.runUntil(() => count === 3, 1000), true);
  assert.equal(scheduler.nowMs(), 30);
  assert.equal(await scheduler.runUntil(() => count === 100, 95), false);
  assert.equal(scheduler.nowMs(), 95);
  assert.equal(count, 9);
});

test("promise continuations of an event finish before the next event runs", async () => {
  const scheduler = new Scheduler({ seed: 1 });
  const log: string[] = [];
  scheduler.schedule(1, () => {
    void (async () => {
      await Promise.resolve();
      await Promise.resolve();
      log.push("continuation");
    })();
  });
  scheduler.schedule(1, () => log.push("other"));
  scheduler.schedule(2, () => log.push("later"));
  await scheduler.runUntilIdle();
  assert.equal(log.indexOf("continuation") < log.indexOf("later"), true);
  assert.equal(log.length, 3);
});

test("a crash drops the node's timers and a restart starts a new incarnation", async () => {
  const scheduler = new Scheduler({ seed: 1 });
  const node = scheduler.node("a");
  const fired: string[] = [];
  node.timers.schedule(10, () => fired.push("before crash"));
  scheduler.schedule(5, () => node.crash());
  scheduler.schedule(7, () => node.timers.schedule(1, () => fired.push("while down")));
  scheduler.schedule(8, () => node.restart());
  scheduler.schedule(9, () => node.timers.schedule(1, () => fired.push("after restart")));
  await scheduler.runUntilIdle();
  assert.deepEqual(fired, ["after restart"]);
  assert.equal(node.incarnation, 2);
  assert.equal(node.isUp, true);
  assert.throws(() => node.restart());
});

test("a lane runs its callbacks in push order even when they are due together", async () => {
  for (let seed = 1; seed <= 20; seed++) {
    const scheduler = new Scheduler({ seed });
    const lane = scheduler.lane("disk");
    const order: number[] = [];
    for (let index = 0; index < 10; index++) lane.push(index % 3, () => order.push(index));
    await scheduler.runUntilIdle();
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  }
});

test("settle returns the value of simulated work and reports work that never ends", async () => {
  const scheduler = new Scheduler({ seed: 1 });
  const node = scheduler.node("a");
  const value = await settle(
    scheduler,
    new Promise<number>((resolve) => node.timers.schedule(50, () => resolve(7))),
  );
  assert.equal(value, 7);
  await assert.rejects(settle(scheduler, new Promise(() => {}), 100), /did not settle/);
});
