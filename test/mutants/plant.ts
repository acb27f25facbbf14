/**
 * Plants one bug in a copy of the build: dist/src and dist/sim are copied to a temporary folder
 * (beside a package.json and a link to node_modules, so the copy runs as the build does), the
 * bug's text is replaced in its compiled file, and the simulation is run on the copy until a
 * seed fails. The shipped build never holds a planted bug or a switch for one.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { PlantedBug } from "./planted-bugs.js";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..", "..");
const DIST = join(ROOT, "dist");

/** What the simulation found with the bug planted: the first failing seed, or none. */
export interface Finding {
  readonly seed: number | null;
  readonly reason: string | null;
}

/** Copies the build and plants `bug`; throws when its text is not found exactly once. */
export function plantedCopy(bug: PlantedBug): string {
  const dir = mkdtempSync(join(tmpdir(), `sluice-mutant-${bug.name}-`));
  cpSync(join(DIST, "src"), join(dir, "src"), { recursive: true });
  cpSync(join(DIST, "sim"), join(dir, "sim"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  for (const change of bug.changes) {
    const path = join(dir, change.file);
    const text = readFileSync(path, "utf8");
    const count = text.split(change.find).length - 1;
    if (count !== 1) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(
        `${bug.name}: "${change.find}" is in ${change.file} ${count} times, not once`,
      );
    }
    writeFileSync(path, text.replace(change.find, change.replace));
  }
  return dir;
}

/** Runs `bug.workload` on a planted copy for up to `bug.maxSeeds` seeds. */
export async function findPlantedBug(bug: PlantedBug): Promise<Finding> {
  return withPlantedCopy(bug, (dir) => findIn(dir, bug));
}

/** Runs `action` on a planted copy of the build, which is removed afterwards. */
export async function withPlantedCopy<T>(
  bug: PlantedBug,
  action: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = plantedCopy(bug);
  try {
    return await action(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first seed of `bug.workload` that fails on the planted copy in `dir`. */
export async function findIn(dir: string, bug: PlantedBug): Promise<Finding> {
  const script = join(dir, "sim", "mutants", "find-violation.js");
  const { stdout } = await runNode([script, bug.workload, String(bug.maxSeeds)]);
  const lines = stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1] ?? "{}") as Finding;
}

/** Runs node with `args`, with the simulation's generous deadline. */
export function runNode(args: readonly string[]): Promise<{ readonly stdout: string }> {
  return run("node", [...args], { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
}
