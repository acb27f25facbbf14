import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyseSource } from "./analyse.js";
import { checkSources, type Source } from "./checker.js";
import { checkFolderLayout } from "./layout.js";
import { checkSizes, computeRatchet, emptyRatchet, parseRatchet, type Ratchet } from "./ratchet.js";

/** A file of `count` short lines. */
function linesOf(count: number): string {
  return Array.from({ length: count }, (_, index) => `export const v${index} = ${index};`)
    .join("\n")
    .concat("\n");
}

/** A function declaration `name` spanning exactly `count` lines. */
function functionOf(name: string, count: number): string {
  const body = Array.from({ length: count - 2 }, (_, index) => `  total += ${index};`);
  return [`export function ${name}(total: number): void {`, ...body, "}"].join("\n");
}

function sizes(sources: readonly Source[], ratchet: Ratchet = emptyRatchet) {
  const report = checkSources(sources, { ratchet, otherPaths: [] });
  return { offences: report.sizes.map((o) => `${o.rule}@${o.line}`), hints: report.hints };
}

const stateMachineHeader = "/** The log's appends: this file owns one state machine. */\n";

test("a file over 300 lines must own one state machine, say so, and be recorded", () => {
  const at = [{ path: "src/storage/a.ts", text: linesOf(300) }];
  assert.deepEqual(sizes(at).offences, []);
  const ratchet: Ratchet = { files: { "src/storage/a.ts": 302 } };
  const plain = [{ path: "src/storage/a.ts", text: linesOf(301) }];
  assert.deepEqual(sizes(plain, ratchet).offences, ["file-size@0"]);
  const declared = [{ path: "src/storage/a.ts", text: stateMachineHeader + linesOf(301) }];
  assert.deepEqual(sizes(declared).offences, ["file-size@0"]);
  assert.deepEqual(sizes(declared, ratchet), { offences: [], hints: [] });
});

test("the declaration may be wrapped over lines of the comment", () => {
  const text = `/**\n * The log: this file owns one\n * state machine.\n */\n${linesOf(301)}`;
  const ratchet: Ratchet = { files: { "src/raft/a.ts": 305 } };
  assert.deepEqual(sizes([{ path: "src/raft/a.ts", text }], ratchet).offences, []);
});

test("the declaration counts only in the file's first comment", () => {
  const text = `/** Helpers. */\n${stateMachineHeader}${linesOf(301)}`;
  const ratchet: Ratchet = { files: { "src/raft/a.ts": 303 } };
  assert.deepEqual(sizes([{ path: "src/raft/a.ts", text }], ratchet).offences, ["file-size@0"]);
});

test("a recorded file may shrink, with a hint, but not grow", () => {
  const ratchet: Ratchet = { files: { "src/raft/a.ts": 320 } };
  const grown = sizes(
    [{ path: "src/raft/a.ts", text: stateMachineHeader + linesOf(320) }],
    ratchet,
  );
  assert.deepEqual(grown.offences, ["file-size@0"]);
  const shrunk = sizes(
    [{ path: "src/raft/a.ts", text: stateMachineHeader + linesOf(309) }],
    ratchet,
  );
  assert.deepEqual(shrunk.offences, []);
  assert.match(shrunk.hints[0] ?? "", /310 lines < 320 recorded; lower the entry/);
  const small = sizes([{ path: "src/raft/a.ts", text: linesOf(200) }], ratchet);
  assert.match(small.hints[0] ?? "", /remove the entry/);
});

test("no file passes 600 lines, whatever the ratchet records", () => {
  const text = stateMachineHeader + linesOf(600);
  const ratchet: Ratchet = { files: { "src/controller/a.ts": 700 } };
  const report = sizes([{ path: "src/controller/a.ts", text }], ratchet);
  assert.deepEqual(report.offences, ["file-size@0"]);
});

test("a function over 70 lines is an offence at its first line, named by a stable key", () => {
  const text = `const x = 1;\n${functionOf("short", 70)}\n${functionOf("long", 71)}\n`;
  const facts = analyseSource("src/broker/a.ts", text);
  assert.deepEqual(
    facts.functions.map((fact) => [fact.key, fact.lines]),
    [
      ["short", 70],
      ["long", 71],
    ],
  );
  assert.deepEqual(sizes([{ path: "src/broker/a.ts", text }]).offences, ["function-size@72"]);
});

test("methods, arrows and test callbacks get keys from their surroundings", () => {
  const text = [
    "export class Log { append(): void {} get size(): number { return 1; } }",
    "export const handlers = { fetch: () => 1, produce(): number { return 2; } };",
    'test("rolls a segment", () => { [1].map((n) => n); });',
    'describe("group", () => { it("works", () => {}); });',
    "export default function () {}",
  ].join("\n");
  const keys = analyseSource("test/a.test.ts", text).functions.map((fact) => fact.key);
  assert.deepEqual(keys, [
    "Log.append",
    "Log.get size",
    "handlers.fetch",
    "handlers.produce",
    'test("rolls a segment")',
    'test("rolls a segment").map(callback)',
    'describe("group").it("works")',
    "default",
  ]);
});

test("lines over 100 characters are offences", () => {
  const wide = `export const s = "${"x".repeat(81)}";\n`;
  const exact = `export const s = "${"x".repeat(80)}";\n`;
  assert.equal(exact.length - 1, 100);
  assert.deepEqual(sizes([{ path: "src/http/a.ts", text: exact }]).offences, []);
  const two = [{ path: "src/http/a.ts", text: exact + wide + wide }];
  assert.deepEqual(sizes(two).offences, ["line-width@2"]);
});

test("generated files are exempt from the size and width rules", () => {
  const text = `// Generated by tools/gen-schemas.mjs; do not edit.\n${linesOf(700)}`;
  assert.deepEqual(sizes([{ path: "src/protocol/schema/x.ts", text }]).offences, []);
});

test("entries for files that are gone produce hints, not failures", () => {
  const ratchet: Ratchet = { files: { "src/gone.ts": 400 } };
  const report = sizes([{ path: "src/raft/a.ts", text: "export const a = 1;\n" }], ratchet);
  assert.deepEqual(report.offences, []);
  assert.equal(report.hints.length, 1);
});

test("the computed ratchet accepts the tree it was computed from, without hints", () => {
  const property = fc.property(
    fc.array(fc.integer({ min: 0, max: 580 }), { maxLength: 4 }),
    (counts) => {
      const facts = counts.map((count, index) =>
        analyseSource(`src/storage/f${index}.ts`, stateMachineHeader + linesOf(count)),
      );
      assert.deepEqual(checkSizes(facts, computeRatchet(facts)), { offences: [], hints: [] });
    },
  );
  fc.assert(property, { seed: 20240611, numRuns: 60 });
});

test("a ratchet file of the wrong shape is refused", () => {
  assert.throws(() => parseRatchet("[]"), /must be/);
  assert.throws(() => parseRatchet('{"files":{"a.ts":"many"}}'), /not a line count/);
  assert.deepEqual(parseRatchet('{"files":{"a.ts":301}}').files["a.ts"], 301);
});

test("every folder under src/ and sim/ needs an index.ts and a README.md", () => {
  const complete = ["src/raft/index.ts", "src/raft/README.md", "src/raft/node/vote.ts"];
  assert.deepEqual(checkFolderLayout([...complete, "test/anything.ts", "bench/x.ts"]), []);
  const messages = checkFolderLayout(["src/raft/index.ts", "sim/run.ts", "src/loose.ts"]).map(
    (offence) => `${offence.path} ${offence.message}`,
  );
  assert.deepEqual(messages, [
    "src/loose.ts lies outside every folder of the module map",
    "sim has no index.ts",
    "sim has no README.md",
    "src/raft has no README.md",
  ]);
  const unknown = checkFolderLayout(["src/extra/index.ts", "src/extra/README.md"]);
  assert.match(unknown[0]?.message ?? "", /not a folder of the module map/);
});
