/**
 * The shrinker on a real failure: with a planted bug (an acks=all produce answered before the
 * high watermark reaches it), the first failing nodes seed is shrunk to a smaller fault schedule
 * that still loses an acknowledged write.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { findIn, runNode, withPlantedCopy } from "./plant.js";
import { PLANTED_BUGS } from "./planted-bugs.js";

test("a failing seed shrinks to fewer faults that still break the same invariant", async () => {
  const bug = PLANTED_BUGS.find((each) => each.name === "acks-all-before-hw");
  assert.ok(bug !== undefined);
  await withPlantedCopy(bug, async (dir) => {
    const { seed } = await findIn(dir, bug);
    assert.ok(seed !== null, "the planted bug is found");
    const runner = join(dir, "sim", "run.js");
    const args = [runner, "--seed", String(seed), "--workload", "nodes", "--shrink"];
    const { stdout } = await runNode(args);
    const summary = /still fails with (\d+) of its (\d+) faults \(\d+ runs\): P1:/.exec(stdout);
    assert.ok(summary !== null, stdout);
    assert.ok(Number(summary[1]) < Number(summary[2]), stdout);
    // Each fault kept is printed as a line of the schedule.
    assert.equal(stdout.trim().split("\n").length, 1 + Number(summary[1]), stdout);
  });
});
