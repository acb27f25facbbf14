/**
 * The short chaos selection of `npm test`: one leader-kill run of 20 s on three real processes
 * in network namespaces, with kcat producers and a kafkajs group; every checker must find
 * nothing. Where network namespaces or kcat are not available (not root, no iproute2) the test
 * is skipped, naming what is missing; `npm run chaos` runs the whole suite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeCapabilities } from "./capabilities.js";
import { runScenario } from "./runner.js";
import { leaderKill } from "./scenarios-process.js";

test("leader-kill for 20 s: no lost, unseen, duplicated or misordered record", async (t) => {
  const capabilities = await probeCapabilities();
  const missing = leaderKill.requires.map((c) => capabilities[c]).filter((m) => m !== null);
  if (missing.length > 0) {
    t.skip(`SKIPPED: this machine lacks ${missing.join("; ")}`);
    return;
  }
  const outDir = mkdtempSync(join(tmpdir(), "sluice-chaos-test-"));
  try {
    const result = await runScenario(leaderKill, { seconds: 20, outDir });
    t.diagnostic(`${result.operations.ok} sends acknowledged, ${result.faults.length} faults`);
    assert.ok(result.faults.length > 0, "a leader was killed");
    assert.ok(result.operations.ok > 0, "writes were acknowledged");
    assert.deepEqual(result.anomalies, []);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
