import { test } from "node:test";
import assert from "node:assert/strict";
import { findWorkload } from "../workloads/index.js";
import { regressionFailures, type RegressionSeed } from "../workloads/registry.js";
import { LivenessSamples } from "./liveness.js";
import { runRaftSeed } from "./raft-workload.js";
import { livenessBoundMs } from "./settings.js";
import { raftWorkload } from "./workload.js";

/** The seeds CI covers; `npm run sim -- --seeds N --workload raft` runs more. */
const seedCount = 1000;

test(`the Raft simulation holds every invariant on ${seedCount} seeds`, async () => {
  const samples = new LivenessSamples();
  const failures: string[] = [];
  const shapes = new Set<string>();
  for (let seed = 1; seed <= seedCount; seed++) {
    const result = await runRaftSeed(seed);
    const outcome = result.outcome;
    if (outcome.kind === "failed") {
      const replay = `node dist/sim/run.js --workload raft --seed ${seed}`;
      failures.push(`seed ${seed}: ${outcome.reason}\n  replay: ${replay}`);
      continue;
    }
    samples.add(outcome.report.livenessMs);
    const shape = outcome.report.shape;
    shapes.add(`${shape.voterCount}/${shape.observerCount}/${shape.kraftVersion}`);
  }
  console.log(samples.summary(livenessBoundMs));
  assert.deepEqual(failures, []);
  // Both quorum sizes, both observer counts and both kraft versions were exercised.
  assert.equal(shapes.size, 8);
});

/**
 * Seeds past the CI range that once failed, each kept with what it found: one bad seed among
 * thousands is too rare for the range to catch again.
 */
const regressionSeeds: readonly RegressionSeed[] = [
  {
    seed: 8425,
    found:
      "a candidate paused with its vote grants held wins epoch 1 after epoch 2 committed more; " +
      "the checker required the later commits of a leader of an earlier epoch",
  },
  {
    seed: 11580,
    found:
      "a voter whose epoch-2 vote requests were lost stayed in epoch 2 for good: its pre-votes " +
      "asked for epoch 3 and moved nobody, and the epoch-1 voters' refusals were older than it",
  },
];

test("the seeds that once failed hold every invariant", async () => {
  assert.deepEqual(await regressionFailures(raftWorkload, regressionSeeds), []);
});

test("a seed replays exactly and another seed runs differently", async () => {
  const first = await runRaftSeed(4242);
  const again = await runRaftSeed(4242);
  const other = await runRaftSeed(4243);
  assert.equal(first.traceHash, again.traceHash);
  assert.notEqual(first.traceHash, other.traceHash);
});

test("the raft workload is registered for npm run sim", async () => {
  assert.equal(findWorkload("raft"), raftWorkload);
  const outcome = await raftWorkload.run(3);
  assert.equal(outcome.kind, "passed");
  assert.match(raftWorkload.report?.()[0] ?? "", /p50 \d+ p90 \d+ p99 \d+ max \d+/);
});
