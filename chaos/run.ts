/**
 * `npm run chaos`: runs fault scenarios on real Sluice processes with real clients and checks
 * the clients' histories and the replicas' files.
 *
 *   npm run chaos -- --list
 *   npm run chaos -- --scenario leader-kill --seconds 60 [--runs 5] [--out DIR]
 *   npm run chaos -- --scenario controller-minority --plant acks-all-before-hw
 *
 * Without --scenario every scenario runs. Prints a table, writes chaos-report.json (and each
 * run's history) into --out (a new temporary folder by default), exits 1 when any scenario
 * inside the fault model found an anomaly, and ends with the line "N anomalies".
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { probeCapabilities } from "./capabilities.js";
import { plant } from "./planted.js";
import { table, writeJson } from "./report.js";
import { runScenario, type RunResult } from "./runner.js";
import type { Scenario } from "./scenario.js";
import { SCENARIOS } from "./scenarios.js";
import { cleanUpNow, cleanUpOnSignals } from "./system.js";

/** How long a run may take beyond its seconds of faults: set-up, recovery, read-back, checks. */
const TIME_BOUND_MS = 6 * 60_000;

/** One run, ended with everything it made removed if it outlives its time bound. */
async function runBounded(
  scenario: Scenario,
  options: { readonly seconds: number; readonly outDir: string },
): Promise<RunResult> {
  const watchdog = setTimeout(
    () => {
      process.stderr.write(`chaos: ${scenario.name} is past its time bound; removing all\n`);
      cleanUpNow();
      process.exit(3);
    },
    TIME_BOUND_MS + options.seconds * 1000,
  );
  try {
    return await runScenario(scenario, options);
  } finally {
    clearTimeout(watchdog);
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      list: { type: "boolean", default: false },
      scenario: { type: "string", multiple: true },
      seconds: { type: "string", default: "60" },
      runs: { type: "string", default: "1" },
      out: { type: "string" },
      plant: { type: "string" },
    },
  });
  if (values.list) {
    for (const s of SCENARIOS) process.stdout.write(`${s.name.padEnd(24)}${s.description}\n`);
    return 0;
  }
  const names = values.scenario ?? SCENARIOS.map((s) => s.name);
  const unknown = names.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`chaos: unknown scenario ${unknown.join(", ")} (see --list)\n`);
    return 2;
  }
  const seconds = Number(values.seconds);
  const runs = Number(values.runs);
  const outDir =
    values.out === undefined
      ? mkdtempSync(join(tmpdir(), "sluice-chaos-report-"))
      : resolve(values.out);
  mkdirSync(outDir, { recursive: true });
  cleanUpOnSignals();
  if (values.plant !== undefined) {
    process.stdout.write(`PLANTED BUG (a copy of the build): ${plant(values.plant)}\n`);
  }
  const capabilities = await probeCapabilities();
  const results: RunResult[] = [];
  for (const name of names) {
    const scenario = SCENARIOS.find((s) => s.name === name);
    if (scenario === undefined) continue;
    const missing = scenario.requires.map((c) => capabilities[c]).filter((m) => m !== null);
    if (missing.length > 0) {
      process.stdout.write(`SKIPPED ${name}: this machine lacks ${missing.join("; ")}\n`);
      continue;
    }
    for (let run = 1; run <= runs; run++) {
      process.stdout.write(`running ${name} (${run}/${runs}, ${seconds} s)\n`);
      const result = await runBounded(scenario, { seconds, outDir });
      results.push(result);
      for (const anomaly of result.anomalies.slice(0, 20)) {
        process.stdout.write(`  ${anomaly.kind} p${anomaly.partition}: ${anomaly.detail}\n`);
      }
      writeJson(join(outDir, "chaos-report.json"), results);
    }
  }
  process.stdout.write(`${table(results)}\nreport: ${join(outDir, "chaos-report.json")}\n`);
  const inside = results.filter((r) => r.outsideFaultModel === null);
  const outside = results.filter((r) => r.outsideFaultModel !== null);
  const count = inside.reduce((sum, r) => sum + r.anomalies.length, 0);
  const outsideCount = outside.reduce((sum, r) => sum + r.anomalies.length, 0);
  if (outside.length > 0) {
    process.stdout.write(`${outsideCount} anomalies outside the fault model (not counted)\n`);
  }
  process.stdout.write(`${count} anomalies\n`);
  return count > 0 ? 1 : 0;
}

process.exit(await main());
