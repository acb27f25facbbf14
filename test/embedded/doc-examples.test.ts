/**
 * docs/embedded.md's examples for node:test, vitest and jest, run as they are written: each code
 * block is copied out of the page into a folder of test/examples (whose node_modules holds vitest
 * and jest, `npm run examples:install`), where `sluice` and `kafkajs` resolve to this repository's
 * build and dependencies, and run with its test runner as the page says to run it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..", "..");
const EXAMPLES = join(ROOT, "test", "examples");
const DEADLINE_MS = 180_000;
let folder: string;

/** The code block under the page's "## With `runner`" heading. */
function exampleFor(runner: string): string {
  const page = readFileSync(join(ROOT, "docs", "embedded.md"), "utf8");
  const found = new RegExp(`## With ${runner}\\n[^#]*?\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(page);
  assert.ok(found?.[1] !== undefined, `docs/embedded.md has an example for ${runner}`);
  return found[1];
}

before(() => {
  assert.ok(existsSync(join(EXAMPLES, "node_modules", "vitest")), "npm run examples:install");
  const modules = join(EXAMPLES, "node_modules");
  for (const [name, target] of [
    ["sluice", ROOT],
    ["kafkajs", join(ROOT, "node_modules", "kafkajs")],
  ] as const) {
    rmSync(join(modules, name), { recursive: true, force: true });
    symlinkSync(target, join(modules, name));
  }
  folder = mkdtempSync(join(EXAMPLES, "run-"));
});

after(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

/** Runs `command` in the runner's own folder (made with `files` in it); its output. */
async function runIn(
  runner: string,
  files: Readonly<Record<string, string>>,
  command: readonly string[],
): Promise<string> {
  const cwd = join(folder, runner);
  mkdirSync(cwd);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
  const [executable = process.execPath, ...args] = command;
  const { stdout, stderr } = await run(executable, args, {
    cwd,
    timeout: DEADLINE_MS,
    env: { ...withoutTestContext(process.env), CI: "1", NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  return stdout + stderr;
}

test("the node:test example runs", async () => {
  const files = { "orders.test.mjs": exampleFor("node:test") };
  const output = await runIn("node-test", files, [process.execPath, "--test", "orders.test.mjs"]);
  assert.match(output, /# pass 1\n# fail 0/);
});

test("the vitest example runs", async () => {
  const vitest = join(EXAMPLES, "node_modules", "vitest", "vitest.mjs");
  const files = { "events.test.ts": exampleFor("vitest") };
  const output = await runIn("vitest", files, [process.execPath, vitest, "run"]);
  assert.match(output, /Tests\s+1 passed \(1\)/);
});

test("the jest example runs with the configuration it names", async () => {
  const example = exampleFor("jest");
  const config = /^\/\/ jest\.config\.js: (.*)$/m.exec(example)?.[1];
  assert.ok(config !== undefined, "the example names its jest.config.js");
  const jest = join(EXAMPLES, "node_modules", "jest", "bin", "jest.js");
  const files = { "jest.config.js": `${config}\n`, "fenced.test.js": example };
  const command = [process.execPath, "--experimental-vm-modules", jest];
  const output = await runIn("jest", files, command);
  assert.match(output, /Tests:\s+1 passed, 1 total/);
});

/** The environment without node:test's marker, which makes a child's `node --test` skip. */
function withoutTestContext(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _marker, ...rest } = environment;
  return rest;
}
