/**
 * The import rules of one file: which platform modules and functions it may use, and which
 * folders of the module map it may reach and by which door.
 */
import type { ImportFact, SourceFacts } from "./analyse.js";
import type { Offence } from "./offence.js";
import {
  folderOf,
  isFolderIndex,
  isRelative,
  isTestFile,
  nodeModuleName,
  resolveImport,
} from "./paths.js";
import {
  adaptersFolder,
  deepImportFolders,
  importPolicies,
  ioModules,
  nodeImportExceptions,
  testFileExtraImports,
  testRunnerModules,
  type ModuleFolder,
} from "./rules.js";

type StaticImport = Extract<ImportFact, { specifier: string }>;

/** True when files of `folder` drive real processes and time, so platform rules skip them. */
function isPlatformExempt(folder: ModuleFolder | undefined): boolean {
  return folder === adaptersFolder || folder === "test" || folder === "bench" || folder === "chaos";
}

/**
 * Offences against "only src/adapters touches the platform": node imports outside the allowed
 * ones, uses of time, timers and randomness, and imports whose target cannot be checked.
 */
export function checkPlatformUse(facts: SourceFacts): Offence[] {
  const folder = folderOf(facts.path);
  if (isPlatformExempt(folder)) return [];
  const offences: Offence[] = [];
  for (const fact of facts.imports) {
    if (fact.kind === "computed") {
      const message = "imports a module named by a computed expression, which cannot be checked";
      offences.push({ rule: "unchecked-import", path: facts.path, line: fact.line, message });
      continue;
    }
    const message = nodeImportOffence(facts.path, fact.specifier);
    if (message !== undefined) {
      offences.push({ rule: "node-import", path: facts.path, line: fact.line, message });
    }
  }
  for (const use of facts.bannedUses) {
    const message = `uses ${use.name}; time, timers and randomness come in through the ports`;
    offences.push({ rule: "banned-api", path: facts.path, line: use.line, message });
  }
  return offences;
}

/** Why importing `specifier` from `path` is not allowed, or undefined when it is. */
function nodeImportOffence(path: string, specifier: string): string | undefined {
  const name = nodeModuleName(specifier);
  if (name === undefined) return undefined;
  if (isTestFile(path) && testRunnerModules.includes(name)) return undefined;
  if (ioModules.includes(name)) {
    return `imports ${specifier}; only src/adapters may do I/O or own timers`;
  }
  if (!path.startsWith("src/")) return undefined;
  const isExcepted = nodeImportExceptions.some(
    (exception) => exception.path.test(path) && exception.modules.includes(name),
  );
  if (isExcepted) return undefined;
  return `imports ${specifier}; in src/ only src/adapters may import node modules`;
}

/**
 * Offences against the module map: importing a folder the map does not allow, reaching past
 * another folder's index.ts, or importing a file outside every folder of the map.
 */
export function checkModuleImports(facts: SourceFacts): Offence[] {
  const from = folderOf(facts.path);
  if (from === undefined) return [];
  const offences: Offence[] = [];
  for (const fact of facts.imports) {
    if (fact.kind === "computed" || !isRelative(fact.specifier)) continue;
    const message = moduleImportOffence(facts.path, from, fact);
    if (message !== undefined) offences.push({ ...message, path: facts.path, line: fact.line });
  }
  return offences;
}

function moduleImportOffence(
  path: string,
  from: ModuleFolder,
  fact: StaticImport,
): Pick<Offence, "rule" | "message"> | undefined {
  const target = resolveImport(path, fact.specifier);
  const to = folderOf(target);
  const mayReachInside = deepImportFolders.includes(from);
  if (to === undefined) {
    if (mayReachInside) return undefined;
    const message = `imports ${fact.specifier}, which is outside every folder of the module map`;
    return { rule: "module-map", message };
  }
  if (to === from) return undefined;
  if (!mayImport(from, to, isTestFile(path))) {
    return { rule: "module-map", message: `${from} may not import ${to} (${fact.specifier})` };
  }
  if (!mayReachInside && !isFolderIndex(target, to)) {
    const message = `imports ${fact.specifier}; import ${to} only through ${to}/index.js`;
    return { rule: "deep-import", message };
  }
  return undefined;
}

/** True when the module map lets files of `from` import folder `to`. */
export function mayImport(from: ModuleFolder, to: ModuleFolder, isTest: boolean): boolean {
  if (from === to) return true;
  if (isTest && testFileExtraImports.includes(to)) return true;
  const policy = importPolicies[from];
  switch (policy.kind) {
    case "only":
      return policy.folders.includes(to);
    case "allExcept":
      return !policy.folders.includes(to);
  }
}
