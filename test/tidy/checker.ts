/**
 * The tidy checker as pure functions over (path, text) pairs, so its rules can be tested on
 * snippets without files. tidy.test.ts feeds it the repository; checker.test.ts feeds it examples.
 */
import { analyseSource, type SourceFacts } from "./analyse.js";
import { checkFolderCycles } from "./cycles.js";
import { checkHandlerTypes } from "./handler-types.js";
import { checkModuleImports, checkPlatformUse } from "./imports.js";
import { checkFolderLayout } from "./layout.js";
import type { Offence } from "./offence.js";
import { checkSizes, type Ratchet } from "./ratchet.js";

/** One TypeScript source: its repository-relative path and its text. */
export interface Source {
  readonly path: string;
  readonly text: string;
}

/** The offences of each family of rules, and the ratchet's advice. */
export interface TidyReport {
  readonly platform: Offence[];
  readonly imports: Offence[];
  readonly cycles: Offence[];
  readonly sizes: Offence[];
  readonly layout: Offence[];
  readonly handlerTypes: Offence[];
  readonly hints: string[];
}

/**
 * Checks `sources` against every rule. `otherPaths` lists the files that are not TypeScript
 * sources (README.md and the like) for the folder layout rule.
 */
export function checkSources(
  sources: readonly Source[],
  options: { readonly ratchet: Ratchet; readonly otherPaths: readonly string[] },
): TidyReport {
  const facts = sources.map((source) => analyseSource(source.path, source.text));
  return checkFacts(facts, {
    ratchet: options.ratchet,
    paths: [...sources.map((source) => source.path), ...options.otherPaths],
  });
}

/** Like checkSources, on facts already gathered; `paths` lists every file in the tree. */
export function checkFacts(
  facts: readonly SourceFacts[],
  options: { readonly ratchet: Ratchet; readonly paths: readonly string[] },
): TidyReport {
  const sizes = checkSizes(facts, options.ratchet);
  return {
    platform: facts.flatMap(checkPlatformUse),
    imports: facts.flatMap(checkModuleImports),
    cycles: checkFolderCycles(facts),
    sizes: sizes.offences,
    layout: checkFolderLayout(options.paths),
    handlerTypes: facts.flatMap(checkHandlerTypes),
    hints: sizes.hints,
  };
}
