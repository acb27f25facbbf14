/**
 * Places files in the module map and resolves the modules they name. Paths are
 * repository-relative with forward slashes, such as "src/storage/log-segment.ts".
 */
import { builtinModules } from "node:module";
import { posix } from "node:path";
import { moduleFolders, type ModuleFolder } from "./rules.js";

/** The module-map folder holding `path`, or undefined when it is outside all of them. */
export function folderOf(path: string): ModuleFolder | undefined {
  let best: ModuleFolder | undefined;
  for (const folder of moduleFolders) {
    const isInside = path.startsWith(`${folder}/`);
    if (isInside && (best === undefined || folder.length > best.length)) best = folder;
  }
  return best;
}

/** True for a test file: it may import the test runner and its own folder's internals. */
export function isTestFile(path: string): boolean {
  return path.endsWith(".test.ts");
}

/**
 * The "node:"-prefixed name of a built-in module named by `specifier` with or without the
 * prefix, or undefined when it names a package or a file.
 */
export function nodeModuleName(specifier: string): string | undefined {
  if (specifier.startsWith("node:")) return specifier;
  return builtinSet.has(specifier) ? `node:${specifier}` : undefined;
}

const builtinSet = new Set(builtinModules);

/** True when `specifier` names a file by a relative path. */
export function isRelative(specifier: string): boolean {
  return specifier === "." || specifier === ".." || /^\.\.?\//.test(specifier);
}

/**
 * The source path a relative import from `fromPath` refers to, with the ".js" that NodeNext
 * requires mapped back to ".ts". It starts with "../" when the import leaves the repository.
 */
export function resolveImport(fromPath: string, specifier: string): string {
  const joined = posix.normalize(posix.join(posix.dirname(fromPath), specifier));
  if (joined.endsWith(".js")) return `${joined.slice(0, -3)}.ts`;
  if (joined.endsWith(".mjs")) return `${joined.slice(0, -4)}.mts`;
  return joined;
}

/** True when `path` is the public surface of `folder`: its index module. */
export function isFolderIndex(path: string, folder: ModuleFolder): boolean {
  return path === `${folder}/index.ts` || path === `${folder}/index.js`;
}
