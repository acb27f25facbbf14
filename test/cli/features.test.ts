/**
 * `sluice features` as a child process against one real node: describe shows what the brokers
 * run and the finalized levels, an upgrade with --dry-run changes nothing, an upgrade and a
 * disable of eligible leader replicas go through and show in describe, and a metadata.version
 * downgrade across a metadata change is refused with exit code 1 and the controller's reason.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { nodeForTheseTests } from "../clients/sluice-process.js";
import { json, runSluice, type Outcome } from "./run-sluice.js";

const node = nodeForTheseTests();

function features(...args: string[]): Promise<Outcome> {
  return runSluice(["features", ...args, "--bootstrap-server", node().bootstrap]);
}

interface Row {
  readonly FEATURE: string;
  readonly SUPPORTED_MAX: string;
  readonly FINALIZED: string;
}

async function finalized(name: string): Promise<string | undefined> {
  const rows = json<Row[]>(await features("describe", "--json"));
  return rows.find((row) => row.FEATURE === name)?.FINALIZED;
}

const ELR = "eligible.leader.replicas.version";

test("features are described, upgraded, disabled and refused as the controller says", async () => {
  const described = await features("describe");
  assert.equal(described.code, 0, described.stderr);
  assert.match(described.stdout, /metadata\.version\s+7 \(3\.3-IV3\)\s+22 \(4\.0-IV0\)/);
  assert.equal(await finalized(ELR), "0");

  const dryRun = await features("upgrade", "--feature", `${ELR}=1`, "--dry-run");
  assert.equal(dryRun.code, 0, dryRun.stderr);
  assert.match(dryRun.stdout, /can be upgraded/);
  assert.equal(await finalized(ELR), "0");

  const upgraded = await features("upgrade", "--feature", `${ELR}=1`);
  assert.equal(upgraded.code, 0, upgraded.stderr);
  assert.equal(await finalized(ELR), "1");

  const refused = await features("downgrade", "--metadata", "3.6");
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /INVALID_UPDATE_VERSION.*might delete metadata information/);
  assert.equal(await finalized("metadata.version"), "22 (4.0-IV0)");

  const disabled = await features("disable", "--feature", ELR);
  assert.equal(disabled.code, 0, disabled.stderr);
  assert.equal(await finalized(ELR), "0");

  const usage = await features("upgrade");
  assert.equal(usage.code, 1);
  assert.match(usage.stderr, /needs --feature or --metadata/);
});
