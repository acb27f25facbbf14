/** The report of a run: a JSON file of every result and a short text table. */
import { writeFileSync } from "node:fs";
import type { RunResult } from "./runner.js";

export function anomalyCounts(result: RunResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const anomaly of result.anomalies) counts[anomaly.kind] = (counts[anomaly.kind] ?? 0) + 1;
  return counts;
}

export function writeJson(path: string, results: readonly RunResult[]): void {
  const rows = results.map((result) => ({ ...result, anomalyCounts: anomalyCounts(result) }));
  writeFileSync(path, JSON.stringify(rows, null, 2) + "\n");
}

const pad = (text: string, width: number) => text.padEnd(width);

export function table(results: readonly RunResult[]): string {
  const header = [
    "scenario",
    "s",
    "sends ok/info/invoked",
    "polled",
    "faults",
    "recovery ms",
    "anomalies",
  ];
  const rows = results.map((r) => [
    r.scenario + (r.outsideFaultModel === null ? "" : " (outside fault model)"),
    String(r.seconds),
    `${r.operations.ok}/${r.operations.info}/${r.operations.invoked}`,
    String(r.polled),
    String(r.faults.length),
    r.recoveryMs === null ? "-" : String(r.recoveryMs),
    Object.entries(anomalyCounts(r))
      .map(([kind, n]) => `${kind}:${n}`)
      .join(" ") || "0",
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  return [header, ...rows]
    .map((row) => row.map((cell, i) => pad(cell, widths[i] ?? 0)).join("  "))
    .join("\n");
}
