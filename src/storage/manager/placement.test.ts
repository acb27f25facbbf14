import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { chooseLogDir, type PlacementCandidate } from "./placement.js";

test("a new log goes to the online dir with the fewest logs, ties to the first listed", () => {
  const candidates: PlacementCandidate[] = [
    { dir: "/a", isOnline: true, logCount: 3 },
    { dir: "/b", isOnline: true, logCount: 1 },
    { dir: "/c", isOnline: true, logCount: 1 },
    { dir: "/d", isOnline: false, logCount: 0 },
  ];
  assert.equal(chooseLogDir(candidates), "/b");
  assert.equal(chooseLogDir([{ dir: "/d", isOnline: false, logCount: 0 }]), undefined);
});

test("placement agrees with sorting the online dirs by log count, stably", () => {
  const candidate = fc.record({ isOnline: fc.boolean(), logCount: fc.nat(5) });
  fc.assert(
    fc.property(fc.array(candidate, { maxLength: 6 }), (drawn) => {
      const candidates = drawn.map((c, index) => ({ ...c, dir: `/dir${index}` }));
      const sorted = candidates.filter((c) => c.isOnline).sort((x, y) => x.logCount - y.logCount);
      assert.equal(chooseLogDir(candidates), sorted[0]?.dir);
    }),
    { seed: 7 },
  );
});
