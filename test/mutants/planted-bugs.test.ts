/**
 * Proof that the simulation can fail: each known bug of PLANTED_BUGS is planted in a copy of
 * the build, and its workload must report a violation within the bug's seed budget. A bug whose
 * text is no longer in the compiled file fails here too, so the list follows the code.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { findPlantedBug } from "./plant.js";
import { PLANTED_BUGS } from "./planted-bugs.js";

test("at least ten known bugs are planted", () => {
  assert.ok(PLANTED_BUGS.length >= 10, `${PLANTED_BUGS.length} planted bugs`);
});

for (const bug of PLANTED_BUGS) {
  test(`the ${bug.workload} simulation finds: ${bug.description}`, async () => {
    const finding = await findPlantedBug(bug);
    assert.notEqual(finding.seed, null, `${bug.name}: no violation in ${bug.maxSeeds} seeds`);
  });
}
