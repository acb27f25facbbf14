/**
 * The rules the tidy test enforces, written down as data. The module map is copied from the
 * "Module map" table of the design document so the test never reads anything outside the
 * repository at run time; when the table changes, change it here in the same commit.
 */

/** The folders of the module map, each a path from the repository root. */
export const moduleFolders = [
  "src/common",
  "src/ports",
  "src/protocol",
  "src/storage",
  "src/raft",
  "src/metadata",
  "src/controller",
  "src/replication",
  "src/coordinator",
  "src/client",
  "src/broker",
  "src/adapters",
  "src/http",
  "src/cli",
  "src/main",
  "sim",
  "test",
  "bench",
  "chaos",
] as const;

/** One folder of the module map. */
export type ModuleFolder = (typeof moduleFolders)[number];

/**
 * What a folder may import: a fixed list of folders, or every folder except some. A folder may
 * always import itself, so no entry names its own folder.
 */
export type ImportPolicy =
  | { readonly kind: "only"; readonly folders: readonly ModuleFolder[] }
  | { readonly kind: "allExcept"; readonly folders: readonly ModuleFolder[] };

const only = (...folders: ModuleFolder[]): ImportPolicy => ({ kind: "only", folders });
const allExcept = (...folders: ModuleFolder[]): ImportPolicy => ({ kind: "allExcept", folders });

/** The "may import" column of the module map. */
export const importPolicies: Readonly<Record<ModuleFolder, ImportPolicy>> = {
  "src/common": only(),
  "src/ports": only("src/common"),
  "src/protocol": only("src/common"),
  "src/storage": only("src/common", "src/ports", "src/protocol"),
  "src/raft": only("src/common", "src/ports", "src/protocol", "src/storage"),
  "src/metadata": only("src/common", "src/protocol", "src/raft"),
  "src/controller": only("src/common", "src/metadata", "src/protocol", "src/raft", "src/ports"),
  "src/replication": only(
    "src/common",
    "src/metadata",
    "src/protocol",
    "src/storage",
    "src/ports",
    "src/client",
  ),
  "src/coordinator": only(
    "src/common",
    "src/protocol",
    "src/storage",
    "src/replication",
    "src/ports",
  ),
  "src/client": only("src/common", "src/protocol", "src/ports"),
  "src/broker": only(
    "src/common",
    "src/ports",
    "src/protocol",
    "src/storage",
    "src/raft",
    "src/metadata",
    "src/controller",
    "src/replication",
    "src/coordinator",
    "src/client",
  ),
  "src/adapters": only("src/common", "src/ports"),
  "src/http": only("src/common", "src/broker", "src/controller"),
  // The command line may use anything; reaching into adapter internals is already refused by
  // the rule that other folders are imported through their index.ts only.
  "src/cli": allExcept(),
  "src/main": allExcept(),
  sim: allExcept("src/adapters"),
  test: allExcept(),
  bench: allExcept(),
  chaos: allExcept(),
};

/**
 * Folders whose files may import any module of another folder, not only its index.ts: they test
 * and measure internals.
 */
export const deepImportFolders: readonly ModuleFolder[] = ["test", "bench", "chaos"];

/**
 * Folders a `*.test.ts` file beside the code may import beyond its folder's own list: the
 * simulator supplies in-memory ports and test/ shared fixtures. Test files are left out of the
 * folder graph, so this creates no cycle.
 */
export const testFileExtraImports: readonly ModuleFolder[] = ["sim", "test"];

/** The only folder whose code may touch the platform: sockets, files, timers, clock, randomness. */
export const adaptersFolder: ModuleFolder = "src/adapters";

/**
 * Node modules that do I/O or own timers. No code outside src/adapters may import them; for sim/
 * this is the whole rule, since the simulator may use pure node modules.
 */
export const ioModules: readonly string[] = [
  "node:fs",
  "node:fs/promises",
  "node:net",
  "node:dgram",
  "node:child_process",
  "node:timers",
  "node:timers/promises",
];

/** Node modules every `*.test.ts` file may import, wherever it lives. */
export const testRunnerModules: readonly string[] = [
  "node:test",
  "node:assert",
  "node:assert/strict",
];

/** A file pattern in src/ outside adapters that may import some node modules all the same. */
export interface NodeImportException {
  /** Matches a repository-relative path, e.g. "src/protocol/records/compression-gzip.ts". */
  readonly path: RegExp;
  readonly modules: readonly string[];
  /** Why the exception is sound; shown nowhere, read by the reviewer who wants to add one. */
  readonly reason: string;
}

/**
 * The exceptions to "in src/ only adapters import node:*". Keep this list short: every entry is a
 * hole in the wall that makes the simulation trustworthy.
 */
export const nodeImportExceptions: readonly NodeImportException[] = [
  {
    // The record batch codec's gzip module is named gzip.ts beside snappy.ts and lz4.ts.
    path: /^src\/protocol\/records\/(compression[^/]*|gzip)\.ts$/,
    modules: ["node:zlib"],
    reason:
      "gzip for record batches (compression type 1) is pure computation over buffers, " +
      "with no I/O, time or randomness; recorded in docs/decisions.",
  },
  {
    // The command line is a composition root; what the wall keeps out is I/O, time and
    // randomness, which node:util's parseArgs does not touch.
    path: /^src\/cli\//,
    modules: ["node:util"],
    reason: "the sluice command parses its arguments with util.parseArgs, which is pure.",
  },
];

/**
 * The names of platform functions that read time or randomness or schedule work, as
 * "object.property" for property reads and a bare name for globals. Only src/adapters may use
 * them; test/, bench/ and chaos/ measure real time and are exempt.
 */
export const bannedGlobalFunctions: readonly string[] = [
  "setTimeout",
  "setInterval",
  "setImmediate",
];

/** Property reads that are banned like the globals above, as [object, property]. */
export const bannedPropertyReads: readonly (readonly [string, string])[] = [
  ["Date", "now"],
  ["performance", "now"],
  ["Math", "random"],
  // Beyond the list of the style guide, these read the same clock or randomness by another door.
  ["process", "hrtime"],
  ["crypto", "getRandomValues"],
  ["crypto", "randomUUID"],
];

/**
 * The folders of request handlers and of the router that feeds them (STYLE.md rule 14): there a
 * request arrives with the type of its API and a handler must build its API's response type, so
 * a type assertion through `unknown` or `any`, an assertion on a body or to a message type, and
 * a body read by string key each hide a mismatch the compiler would otherwise report. Tests
 * beside the code are not handler code.
 */
export const handlerFolders: readonly string[] = ["src/broker/", "src/controller/apis/"];

/** The names of the generated message types (`ProduceRequest`, `FetchResponsePartitionData`). */
export const messageTypeName = /Request|Response/;

/** A file of the handler folders that may give an untyped message its type, and why. */
export interface TypedMessageException {
  readonly path: string;
  readonly reason: string;
}

/**
 * The places where a message meets its type by an assertion. Keep this list short: each entry
 * is a conversion the compiler cannot check, so it must hold for a reason stated here.
 */
export const typedMessageExceptions: readonly TypedMessageException[] = [
  {
    path: "src/broker/router/request-body.ts",
    reason:
      "the router hands a body decoded by the codec of its header's API key only to the handler " +
      "registered under that key, which it checks, so the body has that API's request type.",
  },
  {
    path: "src/controller/apis/version-fit.ts",
    reason:
      "fitting a response to a version only leaves out fields, and every field of a " +
      "MessageInput is optional, so the fitted response is still one of its API.",
  },
];

/** The soft limit: a file up to this many lines needs nothing more. */
export const fileLinesMax = 300;

/**
 * The hard cap, for a file that owns one state machine (an orchestrator with its fields) and
 * says so in its first comment; such a file is held at its recorded size by the ratchet.
 */
export const fileLinesHardMax = 600;

/** What the first comment of a file over the soft limit says of it. */
export const stateMachineDeclaration = /owns one state machine/i;

/** The longest a function may be, in lines: a hard ceiling. */
export const functionLinesMax = 70;

/** The widest a line may be, in characters. */
export const lineWidthMax = 100;

/** The first line of a generated file starts with this; generated files skip size rules. */
export const generatedMarker = "// Generated by";
