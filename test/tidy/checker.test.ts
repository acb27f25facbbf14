import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSources, type Source, type TidyReport } from "./checker.js";
import type { Offence } from "./offence.js";
import { emptyRatchet, type Ratchet } from "./ratchet.js";

/** Checks the given sources with every folder's index.ts and README.md present. */
function check(sources: readonly Source[], ratchet: Ratchet = emptyRatchet): TidyReport {
  return checkSources(sources, { ratchet, otherPaths: [] });
}

function platform(path: string, text: string): Offence[] {
  return check([{ path, text }]).platform;
}

function imports(path: string, text: string): Offence[] {
  return check([{ path, text }]).imports;
}

function rulesOf(offences: readonly Offence[]): string[] {
  return offences.map((offence) => `${offence.rule}@${offence.line}`);
}

test("Date.now in src/ is an offence, with its line", () => {
  const offences = platform("src/storage/log.ts", "const a = 1;\nexport const t = Date.now();\n");
  assert.deepEqual(rulesOf(offences), ["banned-api@2"]);
  assert.match(offences[0]?.message ?? "", /Date\.now/);
});

test("a banned call in a comment or a string is not an offence", () => {
  const text = [
    "// Date.now() and setTimeout(f, 1) are banned here.",
    "/* Math.random() */",
    'export const s = "performance.now() and import(\\"node:fs\\")";',
    "export const t = `setInterval(x)`;",
  ].join("\n");
  assert.deepEqual(platform("src/raft/node.ts", text), []);
});

test("timers are banned whether called, passed or reached through globalThis", () => {
  const text = [
    "setTimeout(() => 1, 5);",
    "globalThis.setInterval(() => 1, 5);",
    "export const later = setImmediate;",
    "export const r = globalThis.Math.random();",
    "export const p = performance.now();",
  ].join("\n");
  const names = platform("src/broker/x.ts", text).map((offence) => offence.message.split(";")[0]);
  assert.deepEqual(names, [
    "uses setTimeout",
    "uses globalThis.setInterval",
    "uses setImmediate",
    "uses Math.random",
    "uses performance.now",
  ]);
});

test("a method or property named like a timer is not the global timer", () => {
  const text = [
    "interface T { setTimeout(ms: number): void }",
    "export class Fake implements T { setTimeout(ms: number): void { void ms; } }",
    "export function run(timers: T) { timers.setTimeout(3); }",
    "export const table = { setInterval: 1, now: 2 };",
  ].join("\n");
  assert.deepEqual(platform("src/controller/x.ts", text), []);
});

test("new Date() reads the wall clock but new Date(ms) does not", () => {
  const text = "export const a = new Date();\nexport const b = new Date(0);\n";
  assert.deepEqual(rulesOf(platform("src/metadata/x.ts", text)), ["banned-api@1"]);
});

test("adapters, test/ and bench/ may use the platform; sim/ may not use time or I/O", () => {
  const text = 'import { open } from "node:fs/promises";\nexport const t = Date.now();\n';
  assert.deepEqual(platform("src/adapters/clock.ts", text), []);
  assert.deepEqual(platform("test/real/spawn.ts", text), []);
  assert.deepEqual(platform("bench/disk.bench.ts", text), []);
  assert.deepEqual(rulesOf(platform("sim/run.ts", text)), ["node-import@1", "banned-api@2"]);
});

test("sim/ may import pure node modules but not the I/O ones, with or without the prefix", () => {
  assert.deepEqual(platform("sim/hash.ts", 'import { createHash } from "node:crypto";'), []);
  assert.deepEqual(rulesOf(platform("sim/x.ts", 'import * as net from "net";')), ["node-import@1"]);
  assert.deepEqual(rulesOf(platform("sim/x.ts", 'import "node:timers/promises";')), [
    "node-import@1",
  ]);
});

test("in src/ any node module outside adapters is an offence, save the listed exceptions", () => {
  const zlib = 'import { gzipSync } from "node:zlib";\n';
  assert.deepEqual(platform("src/protocol/records/compression.ts", zlib), []);
  assert.deepEqual(platform("src/protocol/records/compression-gzip.ts", zlib), []);
  assert.deepEqual(platform("src/protocol/records/gzip.ts", zlib), []);
  assert.deepEqual(rulesOf(platform("src/protocol/records/batch.ts", zlib)), ["node-import@1"]);
  const crypto = 'import { randomBytes } from "crypto";\n';
  assert.deepEqual(rulesOf(platform("src/storage/x.ts", crypto)), ["node-import@1"]);
});

test("a test file beside the code may import the test runner but not the file system", () => {
  const runner = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';
  assert.deepEqual(platform("src/storage/log.test.ts", runner), []);
  assert.deepEqual(rulesOf(platform("src/storage/log.ts", runner)), [
    "node-import@1",
    "node-import@2",
  ]);
  const fs = 'import { readFileSync } from "node:fs";\n';
  assert.deepEqual(rulesOf(platform("src/storage/log.test.ts", fs)), ["node-import@1"]);
});

test("dynamic imports and requires are found; computed ones cannot be checked", () => {
  const text = [
    'import { createRequire } from "node:module";',
    "const load = createRequire(import.meta.url);",
    'export const net = load("net");',
    'export const fs = await import("node:fs");',
    "export const any = await import(process.argv[2] ?? '');",
  ].join("\n");
  assert.deepEqual(rulesOf(platform("src/client/x.ts", text)), [
    "node-import@1",
    "node-import@3",
    "node-import@4",
    "unchecked-import@5",
  ]);
});

test("importing another folder's internals is a deep import; its index.js is fine", () => {
  const deep = 'import { ByteReader } from "../protocol/codec/reader.js";';
  assert.deepEqual(rulesOf(imports("src/storage/x.ts", deep)), ["deep-import@1"]);
  const index = 'import { ByteReader } from "../protocol/index.js";';
  assert.deepEqual(imports("src/storage/x.ts", index), []);
  const own = 'import { x } from "../../storage/segment/y.js";';
  assert.deepEqual(imports("src/storage/log/x.ts", own), []);
});

test("a type-only import and a re-export count as imports", () => {
  const text = [
    'import type { Batch } from "../protocol/records/batch.js";',
    'export { Log } from "../storage/log.js";',
  ].join("\n");
  assert.deepEqual(rulesOf(imports("src/raft/x.ts", text)), ["deep-import@1", "deep-import@2"]);
});

test("an import the module map does not allow is an offence", () => {
  const text = 'import { Log } from "../storage/index.js";';
  const offences = imports("src/protocol/x.ts", text);
  assert.deepEqual(rulesOf(offences), ["module-map@1"]);
  assert.match(offences[0]?.message ?? "", /src\/protocol may not import src\/storage/);
  const adapters = 'import { NodeClock } from "../src/adapters/index.js";';
  assert.deepEqual(rulesOf(imports("sim/cluster.ts", adapters)), ["module-map@1"]);
  assert.deepEqual(imports("src/cli/x.ts", 'import { a } from "../adapters/index.js";'), []);
  assert.deepEqual(imports("src/main/x.ts", 'import { a } from "../adapters/index.js";'), []);
});

test("test/ and bench/ may reach into any folder's internals", () => {
  const text = 'import { ByteReader } from "../../src/protocol/codec/reader.js";';
  assert.deepEqual(imports("test/golden/x.ts", text), []);
  assert.deepEqual(imports("bench/log.bench.ts", text.replace("../../", "../")), []);
});

test("a test beside the code may use the simulator, through its index.ts", () => {
  const index = 'import { a } from "../../sim/index.js";';
  assert.deepEqual(imports("src/storage/log.test.ts", index), []);
  assert.deepEqual(rulesOf(imports("src/storage/log.ts", index)), ["module-map@1"]);
  const deep = 'import { a } from "../../sim/disk.js";';
  assert.deepEqual(rulesOf(imports("src/storage/log.test.ts", deep)), ["deep-import@1"]);
});

test("an import that leaves the module map is an offence outside test/ and bench/", () => {
  const text = 'import data from "../../package.json";';
  assert.deepEqual(rulesOf(imports("src/cli/x.ts", text)), ["module-map@1"]);
  assert.deepEqual(imports("test/x.ts", 'import data from "../package.json";'), []);
});

test("folders that import each other form a cycle; test files do not count", () => {
  const cli = { path: "src/cli/a.ts", text: 'import { b } from "../main/index.js";' };
  const main = { path: "src/main/b.ts", text: 'import { a } from "../cli/index.js";' };
  const cycles = check([cli, main]).cycles;
  assert.equal(cycles.length, 1);
  assert.match(cycles[0]?.message ?? "", /src\/cli -> src\/main .*src\/main -> src\/cli/);
  const mainTest = { ...main, path: "src/main/b.test.ts" };
  assert.deepEqual(check([cli, mainTest]).cycles, []);
});

test("the folder graph of a chain has no cycle", () => {
  const sources = [
    { path: "src/storage/a.ts", text: 'import { b } from "../protocol/index.js";' },
    { path: "src/protocol/b.ts", text: 'import { c } from "../common/index.js";' },
    { path: "src/raft/c.ts", text: 'import { c } from "../storage/index.js";' },
  ];
  assert.deepEqual(check(sources).cycles, []);
});

function handlerTypes(path: string, text: string): Offence[] {
  return check([{ path, text }]).handlerTypes;
}

/** A handler written as before typed handlers: each line hides its request's type. */
const untypedHandler = [
  "export const handler = {",
  "  handle: (context: RequestContext) => {",
  "    const request = context.body as unknown as ListOffsetsRequest;",
  '    const topics = context.body["topics"];',
  "    const first = body as TopicData;",
  "    return respond(request as MessageInput<ListOffsetsResponse>);",
  "  },",
  "};",
].join("\n");

test("in handler code a cast through unknown, of a body or to a message type is an offence", () => {
  const offences = handlerTypes("src/broker/apis/list-offsets.driver.ts", untypedHandler);
  assert.deepEqual(rulesOf(offences), [
    "message-cast@3",
    "unchecked-cast@3",
    "untyped-body@3",
    "untyped-body@4",
    "untyped-body@5",
    "message-cast@6",
  ]);
  assert.match(offences[1]?.message ?? "", /context\.body as unknown/);
  const controller = handlerTypes("src/controller/apis/x.ts", "export const y = x as any;");
  assert.deepEqual(rulesOf(controller), ["unchecked-cast@1"]);
});

test("the rule keeps to handler code: tests and other folders may cast", () => {
  assert.deepEqual(handlerTypes("src/broker/apis/list-offsets.test.ts", untypedHandler), []);
  assert.deepEqual(handlerTypes("src/controller/quorum/x.ts", untypedHandler), []);
  assert.deepEqual(handlerTypes("src/protocol/schema/data-records.ts", untypedHandler), []);
});

test("the router's one conversion may assert a body's type, never through unknown", () => {
  const path = "src/broker/router/request-body.ts";
  assert.deepEqual(handlerTypes(path, "export const r = request.body as ApiRequest<K>;"), []);
  const through = "export const r = request.body as unknown as ApiRequest<K>;";
  assert.deepEqual(rulesOf(handlerTypes(path, through)), ["unchecked-cast@1"]);
});

test("as const, a cast to a type that is no message, and typed reads are no offence", () => {
  const text = [
    "export const versions = { minVersion: 0, maxVersion: 2 } as const;",
    "export const id = topicId as Parameters<typeof image.topics.byId.get>[0];",
    "export const wide = (request as unknown);",
    "export const count = request.body.topics.length;",
    'export const entry = table["body"];',
  ].join("\n");
  assert.deepEqual(handlerTypes("src/broker/apis/fetch.driver.ts", text), []);
});
