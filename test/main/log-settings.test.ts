/**
 * The node's own log settings on a real node process: `sluice.log.format=json` makes every log
 * line one JSON object, `sluice.log.level=warn` drops info lines, and `sluice.log.levels` gives
 * one component (the broker lifecycle) its own level, so that its info lines still appear.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { nodeForTheseTests } from "../clients/sluice-process.js";

const node = nodeForTheseTests([
  "sluice.log.format=json",
  "sluice.log.level=warn",
  "sluice.log.levels=broker-lifecycle=info",
]);

interface Line {
  readonly level: string;
  readonly msg: string;
  readonly component?: string;
}

test("log lines are JSON at the node's level, with a component's own level", () => {
  const output = node()
    .log.split("\n")
    .filter((line) => line.trim() !== "");
  assert.ok(!output.some((line) => line.startsWith("time=")), "no logfmt line");
  const lines = output.filter((line) => line.startsWith("{")).map((l) => JSON.parse(l) as Line);
  const infos = lines.filter((line) => line.level === "info");
  assert.ok(
    infos.some((line) => line.component === "broker-lifecycle"),
    `the lifecycle's info lines are written:\n${node().log}`,
  );
  assert.deepEqual(
    infos.filter((line) => line.component !== "broker-lifecycle"),
    [],
    "no other info line",
  );
});
