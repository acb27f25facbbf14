import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Random } from "../ports/index.js";
import { apiDefinition } from "../protocol/index.js";
import { reconnectBackoffMs } from "./reconnect-backoff.js";
import { chooseVersion, interpretApiVersionsResponse } from "./version-negotiation.js";

const FETCH_KEY = 1;

/** A Random that always draws `value` as its float. */
function fixedRandom(value: number): Random {
  return {
    nextUint32: () => Math.floor(value * 2 ** 32),
    nextFloat: () => value,
    nextInt: (bound) => Math.floor(value * bound),
    fill: (target) => target.fill(0),
  };
}

test(
  "the chosen version is the highest one every side allows, or none when " + "they do not meet",
  () => {
    const definition = apiDefinition(FETCH_KEY);
    assert.ok(definition !== undefined);
    const version = fc.integer({ min: -1, max: definition.maxVersion + 2 });
    fc.assert(
      fc.property(version, version, version, version, (servedA, servedB, wishA, wishB) => {
        const served = new Map([
          [
            FETCH_KEY,
            { minVersion: Math.min(servedA, servedB), maxVersion: Math.max(servedA, servedB) },
          ],
        ]);
        const wish = { minVersion: Math.min(wishA, wishB), maxVersion: Math.max(wishA, wishB) };
        const acceptable = [];
        for (let v = definition.minVersion; v <= definition.maxVersion; v++) {
          const isServed = v >= Math.min(servedA, servedB) && v <= Math.max(servedA, servedB);
          if (isServed && v >= wish.minVersion && v <= wish.maxVersion) acceptable.push(v);
        }
        const choice = chooseVersion(FETCH_KEY, served, wish);
        if (acceptable.length === 0) assert.equal(choice.kind, "unsupported");
        else assert.deepEqual(choice, { kind: "chosen", apiVersion: Math.max(...acceptable) });
      }),
      { seed: 511 },
    );
  },
);

test(
  "UNSUPPORTED_VERSION steps ApiVersions down to the peer's own maximum, " + "or v0 without one",
  () => {
    const withRange = { errorCode: 35, apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 2 }] };
    assert.deepEqual(interpretApiVersionsResponse(4, withRange), { kind: "retry", apiVersion: 2 });
    assert.deepEqual(interpretApiVersionsResponse(4, { errorCode: 35, apiKeys: [] }), {
      kind: "retry",
      apiVersion: 0,
    });
    assert.equal(interpretApiVersionsResponse(2, withRange).kind, "failed", "never the same again");
    assert.equal(interpretApiVersionsResponse(4, { errorCode: 42, apiKeys: [] }).kind, "failed");
  },
);

test(
  "the reconnect backoff doubles per failure, caps at the maximum and " + "stays within 20% jitter",
  () => {
    const bounds = { reconnectBackoffMs: 50, reconnectBackoffMaxMs: 1000 };
    assert.equal(reconnectBackoffMs(bounds, 1, fixedRandom(0.5)), 50);
    assert.equal(reconnectBackoffMs(bounds, 3, fixedRandom(0.5)), 200);
    assert.equal(reconnectBackoffMs(bounds, 40, fixedRandom(0.5)), 1000);
    assert.equal(reconnectBackoffMs(bounds, 1, fixedRandom(0)), 40);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 0, max: 0.999 }),
        (n, draw) => {
          const term = Math.min(50 * 2 ** Math.min(n - 1, 30), 1000);
          const waitMs = reconnectBackoffMs(bounds, n, fixedRandom(draw));
          assert.ok(waitMs >= Math.floor(term * 0.8) && waitMs <= Math.ceil(term * 1.2));
        },
      ),
      { seed: 50 },
    );
  },
);
