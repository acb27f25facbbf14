/**
 * The scenario script language shared by every folder of scenarios: one command per line, each
 * followed by the lines it printed, prefixed with "> "; lines starting with "#" are comments.
 * Each folder brings a runner that turns one command into printed lines; this module runs the
 * scripts, compares or rewrites their output (SCENARIO_REWRITE=1) and gives the `key=value`
 * argument and `check` helpers. See README.md in this folder.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";

/**
 * Runs one command line of a script and returns what it printed; throws when a check fails. A
 * runner over asynchronous code (drivers on the simulated disk) returns a promise.
 */
export interface ScenarioRunner {
  run(line: string): string[] | Promise<string[]>;
}

/** Runs a script and returns it with the actual output, plus the first mismatch, if any. */
export async function runScript(
  text: string,
  runner: ScenarioRunner,
): Promise<{ rewritten: string; mismatch: string | null; failure: unknown }> {
  const lines = text.split("\n");
  const out: string[] = [];
  let mismatch: string | null = null;
  let failure: unknown = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.startsWith("> ")) continue;
    out.push(line);
    if (line.trim() === "" || line.startsWith("#")) continue;
    let printed: string[];
    try {
      printed = failure === null ? await runner.run(line) : [];
    } catch (error) {
      // A failed check stops the script; the lines so far are kept to help find out why.
      failure = error;
      printed = [
        `FAILED: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      ];
    }
    const actual = printed.map((text) => `> ${text}`);
    const expected: string[] = [];
    while ((lines[index + 1] ?? "").startsWith("> ")) expected.push(lines[++index] as string);
    out.push(...actual);
    if (mismatch === null && actual.join("\n") !== expected.join("\n")) {
      mismatch =
        `line ${index + 1}:` +
        ` ${line}\nexpected:\n${expected.join("\n")}\nactual:\n${actual.join("\n")}`;
    }
  }
  return { rewritten: out.join("\n"), mismatch, failure };
}

/**
 * Registers one test per script of test/scenarios/<folder>/*.txt, run by a fresh runner each.
 * With SCENARIO_REWRITE=1 the files are rewritten with the actual output, for a reviewer to read
 * the diff; a failed check fails the test in either mode.
 */
export function registerScenarioTests(options: {
  readonly folder: string;
  readonly title: string;
  readonly newRunner: () => ScenarioRunner;
}): void {
  // The compiled module runs from dist/test/scenarios; the scripts stay in the source tree.
  const scenarios = new URL(`../../../test/scenarios/${options.folder}/`, import.meta.url);
  const isRewrite = process.env["SCENARIO_REWRITE"] === "1";
  const files = readdirSync(scenarios)
    .filter((name) => name.endsWith(".txt"))
    .sort();
  test(`there are ${options.title} scenario scripts`, () => {
    assert.ok(files.length > 0);
  });
  for (const file of files) {
    test(`${options.folder} scenario ${file}`, async () => {
      const url = new URL(file, scenarios);
      const script = readFileSync(url, "utf8");
      const { rewritten, mismatch, failure } = await runScript(script, options.newRunner());
      if (isRewrite) writeFileSync(url, rewritten);
      if (failure !== null) throw failure;
      if (isRewrite) return;
      const hint = "SCENARIO_REWRITE=1 rewrites it";
      assert.equal(mismatch, null, `${file} differs (${hint}):\n${mismatch}`);
    });
  }
}

/** The `key=value` arguments of a command, by key (the value is what follows the first "="). */
export function optionsOf(args: readonly string[]): Map<string, string> {
  return new Map(
    args.map((arg) => {
      const at = arg.indexOf("=");
      return at < 0 ? [arg, ""] : [arg.slice(0, at), arg.slice(at + 1)];
    }),
  );
}

/**
 * Asserts `key=value` expectations against the facts the runner knows of one subject; unlike
 * printed lines, a failed check is never rewritten.
 */
export function checkFacts(
  facts: Readonly<Record<string, string>>,
  expectations: readonly string[],
  subject: string,
): void {
  for (const [key, value] of optionsOf(expectations)) {
    assert.ok(key in facts, `check knows no fact ${key}`);
    assert.equal(facts[key], value, `${subject}: ${key}`);
  }
}
