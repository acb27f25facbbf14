import { test } from "node:test";
import assert from "node:assert/strict";
import { findWorkload } from "../workloads/index.js";
import { runNodesSeed } from "./nodes-workload.js";
import { nodesWorkload } from "./workload.js";

/** The seeds CI covers; `npm run sim -- --seeds N --workload nodes` runs more. */
const seedCount = 20;

test(`three production nodes hold every invariant on ${seedCount} seeds`, async () => {
  const failures: string[] = [];
  let acknowledged = 0;
  let offsetsCommitted = 0;
  const elrModes = new Set<boolean>();
  const topologies = new Set<boolean>();
  const faults = new Map<string, number>();
  for (let seed = 1; seed <= seedCount; seed++) {
    const result = await runNodesSeed(seed);
    const outcome = result.outcome;
    if (outcome.kind === "failed") {
      const replay = `node dist/sim/run.js --workload nodes --seed ${seed}`;
      failures.push(`seed ${seed}: ${outcome.reason}\n  replay: ${replay}`);
      continue;
    }
    acknowledged += outcome.report.acknowledged;
    offsetsCommitted += outcome.report.offsetsCommitted;
    elrModes.add(outcome.report.isElrEnabled);
    topologies.add(outcome.report.isSeparated);
    for (const [kind, count] of outcome.report.faultCounts) {
      faults.set(kind, (faults.get(kind) ?? 0) + count);
    }
  }
  assert.deepEqual(failures, []);
  assert.equal(elrModes.size, 2, "seeds with eligible leader replicas on and off");
  assert.equal(topologies.size, 2, "seeds with combined nodes and with separate roles");
  // Records were written through the faults, and every kind of fault of the swarm happened.
  assert.ok(acknowledged > seedCount * 50, `only ${acknowledged} writes acknowledged`);
  assert.ok(offsetsCommitted > seedCount * 10, `only ${offsetsCommitted} offsets committed`);
  for (const kind of ["kill", "isolate", "oneWay", "lossy", "clock", "disk"]) {
    assert.ok((faults.get(kind) ?? 0) > 0, `no ${kind} fault in ${seedCount} seeds`);
  }
});

test("a nodes seed replays exactly and another seed runs differently", async () => {
  const first = await runNodesSeed(41);
  const again = await runNodesSeed(41);
  const other = await runNodesSeed(42);
  assert.equal(first.traceHash, again.traceHash);
  assert.notEqual(first.traceHash, other.traceHash);
});

test("the nodes workload is registered for npm run sim", async () => {
  assert.equal(findWorkload("nodes"), nodesWorkload);
  const outcome = await nodesWorkload.run(43);
  assert.equal(outcome.kind, "passed");
  assert.match(nodesWorkload.report?.()[0] ?? "", /nodes: \d+ seeds passed/);
});
