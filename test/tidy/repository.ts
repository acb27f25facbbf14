/**
 * Reads the repository the tidy test checks: its root, its source files and the ratchet. This is
 * the only file of the checker that touches the disk.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { analyseSource, type SourceFacts } from "./analyse.js";
import { parseRatchet, type Ratchet } from "./ratchet.js";

/** The folders whose TypeScript sources are checked, as tsconfig.json compiles them. */
export const checkedRoots = ["src", "sim", "test", "bench", "chaos"] as const;

/** Where the ratchet is kept, from the repository root. */
export const ratchetPath = "test/tidy/ratchet.json";

const skippedDirectories = new Set(["node_modules", "dist"]);

/** The nearest folder at or above `fromUrl` (a file: URL) that holds a package.json. */
export function findRepositoryRoot(fromUrl: string): string {
  let directory = dirname(fileURLToPath(fromUrl));
  for (;;) {
    if (existsSync(join(directory, "package.json"))) return directory;
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${fromUrl}`);
    directory = parent;
  }
}

/** Every file below the checked roots, repository-relative with "/" separators, sorted. */
export function listFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || skippedDirectories.has(entry.name)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(relative(root, path).split(sep).join("/"));
    }
  };
  for (const top of checkedRoots) {
    if (existsSync(join(root, top))) walk(join(root, top));
  }
  return files.sort();
}

/** True for a TypeScript source the checker parses (declaration files included). */
export function isTypeScriptSource(path: string): boolean {
  return /\.(ts|mts|cts|tsx)$/.test(path);
}

/** The facts of every TypeScript source among `paths`. */
export function analyseFiles(root: string, paths: readonly string[]): SourceFacts[] {
  return paths
    .filter(isTypeScriptSource)
    .map((path) => analyseSource(path, readFileSync(join(root, path), "utf8")));
}

/** The recorded ratchet, or the empty one when the file does not exist yet. */
export function readRatchet(root: string): Ratchet {
  const path = join(root, ratchetPath);
  if (!existsSync(path)) return { files: {} };
  return parseRatchet(readFileSync(path, "utf8"));
}
