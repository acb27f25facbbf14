/**
 * The benchmark runner (`npm run bench`). It loads every compiled `*.bench.js` beside it in name
 * order, runs each benchmark one after another (never in parallel, so they do not disturb each
 * other), and prints the machine, the date and a table of figures.
 *
 * Usage: node dist/bench/run.js [--filter SUBSTRING] [--json FILE] [--list]
 */
import { readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** One figure a benchmark measured, such as { label: "no fsync", value: 812, unit: "MiB/s" }. */
export interface BenchmarkResult {
  readonly label: string;
  readonly value: number;
  readonly unit: string;
}

/** What each `bench/*.bench.ts` file exports as `benchmarks`. */
export interface Benchmark {
  readonly name: string;
  run(): Promise<BenchmarkResult[]>;
}

/** The machine a run was made on, as printed at the top and written to the JSON file. */
export interface MachineDescription {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
}

/** One row of the report: a figure and the benchmark (file/name) that produced it. */
export interface ReportRow extends BenchmarkResult {
  readonly benchmark: string;
}

interface Options {
  readonly filter: string | undefined;
  readonly jsonPath: string | undefined;
  readonly isListOnly: boolean;
}

const usage = "usage: node dist/bench/run.js [--filter SUBSTRING] [--json FILE] [--list]";

function parseOptions(args: readonly string[]): Options | string {
  let filter: string | undefined;
  let jsonPath: string | undefined;
  let isListOnly = false;
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index];
    if (argument === "--list") isListOnly = true;
    else if (argument === "--filter" || argument === "--json") {
      const value = args[index + 1];
      if (value === undefined) return `${argument} needs a value`;
      if (argument === "--filter") filter = value;
      else jsonPath = value;
      index += 1;
    } else return `unknown argument ${String(argument)}`;
  }
  return { filter, jsonPath, isListOnly };
}

/** The machine this process runs on, from node:os. */
export function describeMachine(): MachineDescription {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** A figure with as many decimals as it deserves: 1,234 / 56.7 / 0.123. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  const decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
  return value.toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

/** The rows as an aligned text table, values right-aligned. */
export function formatTable(rows: readonly ReportRow[]): string {
  const header = { benchmark: "benchmark", label: "figure", value: "value", unit: "unit" };
  const cells = rows.map((row) => ({ ...row, value: formatValue(row.value) }));
  const all = [header, ...cells];
  const width = (key: keyof typeof header): number =>
    Math.max(...all.map((cell) => cell[key].length));
  const line = (cell: typeof header): string =>
    [
      cell.benchmark.padEnd(width("benchmark")),
      cell.label.padEnd(width("label")),
      cell.value.padStart(width("value")),
      cell.unit,
    ].join("  ");
  const rule = "-".repeat(line(header).length);
  return [line(header), rule, ...cells.map(line)].join("\n");
}

/** The compiled benchmark files beside this runner, sorted by name. */
function benchmarkFiles(directory: string): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith(".bench.js"))
    .sort();
}

/** Loads one file's `benchmarks`, checking the shape so a typo fails loudly rather than skips. */
async function loadBenchmarks(path: string): Promise<Benchmark[]> {
  const loaded = (await import(pathToFileURL(path).href)) as { benchmarks?: unknown };
  const list = loaded.benchmarks;
  const isValid =
    Array.isArray(list) &&
    list.every(
      (item: unknown) =>
        typeof item === "object" &&
        item !== null &&
        typeof (item as Benchmark).name === "string" &&
        typeof (item as Benchmark).run === "function",
    );
  if (!isValid) throw new Error(`${path} must export benchmarks: { name, run }[]`);
  return list as Benchmark[];
}

function isValidResult(result: unknown): result is BenchmarkResult {
  if (typeof result !== "object" || result === null) return false;
  const { label, value, unit } = result as Record<string, unknown>;
  return typeof label === "string" && typeof value === "number" && typeof unit === "string";
}

/** Runs the selected benchmarks in order; a failure is reported and the rest still run. */
async function runAll(
  directory: string,
  options: Options,
): Promise<{ rows: ReportRow[]; failures: string[] }> {
  const rows: ReportRow[] = [];
  const failures: string[] = [];
  for (const file of benchmarkFiles(directory)) {
    const stem = file.slice(0, -".bench.js".length);
    for (const benchmark of await loadBenchmarks(join(directory, file))) {
      const id = `${stem}/${benchmark.name}`;
      if (options.filter !== undefined && !id.includes(options.filter)) continue;
      if (options.isListOnly) {
        console.log(id);
        continue;
      }
      process.stderr.write(`running ${id} ...\n`);
      try {
        const results = await benchmark.run();
        if (!results.every(isValidResult)) throw new Error("a result is not {label, value, unit}");
        for (const result of results) rows.push({ benchmark: benchmark.name, ...result });
      } catch (error) {
        failures.push(`${id}: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
      }
    }
  }
  return { rows, failures };
}

async function main(args: readonly string[]): Promise<number> {
  const options = parseOptions(args);
  if (typeof options === "string") {
    console.error(`${options}\n${usage}`);
    return 2;
  }
  const directory = dirname(fileURLToPath(import.meta.url));
  const machine = describeMachine();
  const date = new Date().toISOString();
  if (!options.isListOnly) {
    console.log(`machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB`);
    console.log(`node:    ${machine.node} on ${machine.os}`);
    console.log(`date:    ${date}\n`);
  }
  const { rows, failures } = await runAll(directory, options);
  if (options.isListOnly) return 0;
  if (rows.length > 0) console.log(formatTable(rows));
  else if (failures.length === 0) console.log("no benchmark matched");
  for (const failure of failures) console.error(`\nFAILED ${failure}`);
  if (options.jsonPath !== undefined) {
    const report = { date, machine, results: rows, failures };
    writeFileSync(options.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  }
  return failures.length === 0 ? 0 : 1;
}

// Run only when started as a program, so the helpers above can be imported without side effects.
const entry = process.argv[1];
if (entry !== undefined && pathToFileURL(entry).href === import.meta.url) {
  process.exitCode = await main(process.argv.slice(2));
}
