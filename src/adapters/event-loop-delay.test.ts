import { test } from "node:test";
import assert from "node:assert/strict";
import { EventLoopDelay } from "./event-loop-delay.js";
import { PrometheusRegistry } from "./metrics/prometheus-registry.js";

const BLOCK_MS = 50;
const DEADLINE_MS = 10_000;

function statOf(registry: PrometheusRegistry, stat: string): number {
  const value = registry.valueOf("sluice_event_loop_delay_ms", { stat });
  assert.ok(value !== undefined, `the ${stat} series is registered`);
  return value;
}

/** Holds the event loop for `ms`, as a long synchronous piece of work would. */
function block(ms: number): void {
  const start = performance.now();
  while (performance.now() - start < ms) {
    // Busy on purpose.
  }
}

test("a blocked event loop shows in the delay gauges at the next scrape", async () => {
  const registry = new PrometheusRegistry();
  const delay = new EventLoopDelay(registry, { resolutionMs: 1 });
  registry.addCollector(() => delay.update());
  try {
    assert.equal(statOf(registry, "max"), 0);
    const deadline = performance.now() + DEADLINE_MS;
    // The monitor's first tick after a scrape only starts its clock again, so a block before
    // that tick is not seen: let it tick, block, let it tick, scrape, until a block is seen. A
    // tick due during a 50 ms block comes at least that late, less the 1 ms resolution, however
    // slow the machine.
    const ticks = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 5));
    while (statOf(registry, "max") < BLOCK_MS - 2) {
      assert.ok(performance.now() < deadline, "no block was sampled");
      await ticks();
      block(BLOCK_MS);
      await ticks();
      registry.render();
    }
    for (const stat of ["mean", "p50", "p99"]) {
      const value = statOf(registry, stat);
      assert.ok(value > 0 && value <= statOf(registry, "max"), stat);
    }
    assert.match(registry.render(), /sluice_event_loop_delay_ms\{stat="p99"\} /);
  } finally {
    delay.stop();
  }
});
