/**
 * The tidy test: the architecture rules of DESIGN.md and STYLE.md, checked over the TypeScript
 * sources of the repository (not dist/). Each family of rules is one test, so a failure names
 * the rule and lists every offence with its file and line. The rules themselves are in
 * test/tidy/rules.ts and are tested on snippets in test/tidy/checker.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFacts, type TidyReport } from "./tidy/checker.js";
import { formatOffences, type Offence } from "./tidy/offence.js";
import { analyseFiles, findRepositoryRoot, listFiles, readRatchet } from "./tidy/repository.js";

const root = findRepositoryRoot(import.meta.url);
const paths = listFiles(root);
const report: TidyReport = checkFacts(analyseFiles(root, paths), {
  ratchet: readRatchet(root),
  paths,
});

function assertNone(offences: readonly Offence[], advice: string): void {
  if (offences.length === 0) return;
  assert.fail(`${offences.length} offence(s); ${advice}\n${formatOffences(offences)}`);
}

test("the checker sees the sources of the repository", () => {
  // A wrong root would find nothing and pass every rule; src/common always exists.
  assert.ok(paths.includes("src/common/index.ts"), `no src/common/index.ts under ${root}`);
});

test("only src/adapters imports I/O modules or reads time and randomness", () => {
  assertNone(report.platform, "take the platform in through src/ports (see test/tidy/rules.ts)");
});

test("imports follow the module map and go through each folder's index.ts", () => {
  assertNone(report.imports, "the allowed imports are the module map of the design");
});

test("folders do not import each other in a cycle", () => {
  assertNone(report.cycles, "move the shared part down into a folder both may import");
});

test("files and functions stay within the limits and the ratchet", (context) => {
  for (const hint of report.hints) context.diagnostic(`ratchet: ${hint}`);
  assertNone(
    report.sizes,
    "cut the file along its concepts or shorten the function; see test/tidy/ratchet.ts",
  );
});

test("every folder under src/ and sim/ has an index.ts and a README.md", () => {
  assertNone(report.layout, "each folder shows its public surface and says what it may import");
});

test("requests stay typed from the router to the handler: no casts of bodies or messages", () => {
  assertNone(
    report.handlerTypes,
    "a handler receives its API's request type and returns its response type (STYLE.md rule 14)",
  );
});
