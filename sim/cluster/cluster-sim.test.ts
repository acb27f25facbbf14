import { test } from "node:test";
import assert from "node:assert/strict";
import { findWorkload } from "../workloads/index.js";
import { regressionFailures, type RegressionSeed } from "../workloads/registry.js";
import { runClusterSeed } from "./cluster-workload.js";
import { clusterWorkload } from "./workload.js";

/** The seeds CI covers; `npm run sim -- --seeds N --workload cluster` runs more. */
const seedCount = 100;

test(`the cluster simulation holds every invariant on ${seedCount} seeds`, async () => {
  const failures: string[] = [];
  let leaderChanges = 0;
  let uncleanElections = 0;
  const elrModes = new Set<boolean>();
  for (let seed = 1; seed <= seedCount; seed++) {
    const result = await runClusterSeed(seed);
    const outcome = result.outcome;
    if (outcome.kind === "failed") {
      const replay = `node dist/sim/run.js --workload cluster --seed ${seed}`;
      failures.push(`seed ${seed}: ${outcome.reason}\n  replay: ${replay}`);
      continue;
    }
    leaderChanges += outcome.report.leaderChanges;
    uncleanElections += outcome.report.uncleanElections;
    elrModes.add(outcome.report.isElrEnabled);
  }
  assert.deepEqual(failures, []);
  // The faults did move leaders, cleanly and uncleanly, with ELR both on and off.
  assert.ok(leaderChanges > seedCount, `only ${leaderChanges} leader changes`);
  assert.ok(uncleanElections > 0, "no unclean election happened");
  assert.equal(elrModes.size, 2);
});

/**
 * Seeds past the CI range that once failed, each kept with what it found: one bad seed among
 * thousands is too rare for the range to catch again.
 */
const regressionSeeds: readonly RegressionSeed[] = [
  {
    seed: 2499,
    found:
      "a controller paused with its vote grants held wins epoch 2 after epoch 3 committed more; " +
      "the Raft checker required the later commits of a leader of an earlier epoch",
  },
];

test("the cluster seeds that once failed hold every invariant", async () => {
  assert.deepEqual(await regressionFailures(clusterWorkload, regressionSeeds), []);
});

test("a cluster seed replays exactly and another seed runs differently", async () => {
  const first = await runClusterSeed(777);
  const again = await runClusterSeed(777);
  const other = await runClusterSeed(778);
  assert.equal(first.traceHash, again.traceHash);
  assert.notEqual(first.traceHash, other.traceHash);
});

test("the cluster workload is registered for npm run sim", async () => {
  assert.equal(findWorkload("cluster"), clusterWorkload);
  const outcome = await clusterWorkload.run(5);
  assert.equal(outcome.kind, "passed");
  assert.match(clusterWorkload.report?.()[0] ?? "", /cluster: \d+ seeds passed/);
});
