/**
 * Runs the Raft scenario scripts in test/scenarios/raft/*.txt. Each command's printed lines
 * must match the "> " lines under it; with SCENARIO_REWRITE=1 the files are rewritten with the
 * actual lines instead, for a reviewer to read the diff. `check` lines assert either way.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { ScriptRunner } from "./scenarios/raft/script.js";

// The compiled test runs from dist/test; the scripts stay in the source tree.
const SCENARIOS = new URL("../../test/scenarios/raft/", import.meta.url);
const isRewrite = process.env["SCENARIO_REWRITE"] === "1";

/** Runs a script and returns it with the actual output, plus the first mismatch, if any. */
function runScript(text: string): { rewritten: string; mismatch: string | null; failure: unknown } {
  const lines = text.split("\n");
  const out: string[] = [];
  const runner = new ScriptRunner();
  let mismatch: string | null = null;
  let failure: unknown = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.startsWith("> ")) continue;
    out.push(line);
    if (line.trim() === "" || line.startsWith("#")) continue;
    let printed: string[];
    try {
      printed = failure === null ? runner.run(line) : [];
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

const files = readdirSync(SCENARIOS)
  .filter((name) => name.endsWith(".txt"))
  .sort();

test("there are Raft scenario scripts", () => {
  assert.ok(files.length > 0);
});

for (const file of files) {
  test(`raft scenario ${file}`, () => {
    const url = new URL(file, SCENARIOS);
    const { rewritten, mismatch, failure } = runScript(readFileSync(url, "utf8"));
    if (isRewrite) writeFileSync(url, rewritten);
    if (failure !== null) throw failure;
    if (isRewrite) return;
    assert.equal(mismatch, null, `${file} differs (SCENARIO_REWRITE=1 rewrites it):\n${mismatch}`);
  });
}
