import { test } from "node:test";
import assert from "node:assert/strict";
import { format } from "../../src/cli/format.js";
import { randomUuid } from "../../src/cli/random-uuid.js";
import { uuidFromBase64 } from "../../src/common/index.js";
import { bootstrapRecords, isElrEnabled } from "../../src/controller/index.js";
import { readControllerBootstrap } from "../../src/main/node-controller.js";
import { NodeStartError } from "../../src/main/node-types.js";
import { EMPTY_IMAGE, MetadataDelta } from "../../src/metadata/index.js";
import { BOOTSTRAP_METADATA_FILE } from "../../src/raft/index.js";
import { readMetaProperties } from "../../src/storage/index.js";
import { MemoryFileSystem } from "../../src/storage/memory-file-system.test-support.js";
import { ManualClock } from "../../sim/clock.js";
import { SeededRandom } from "../../sim/random.js";

const config = [
  "process.roles=broker,controller",
  "node.id=3",
  "listeners=PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
  "controller.listener.names=CONTROLLER",
  "controller.quorum.voters=3@127.0.0.1:9093",
  "log.dirs=/data/a,/data/b",
].join("\n");

async function writeFile(fileSystem: MemoryFileSystem, path: string, text: string) {
  const handle = await fileSystem.open(path, { create: true });
  await handle.write(new TextEncoder().encode(text), 0);
  await handle.close();
}

async function setUp(): Promise<MemoryFileSystem> {
  const fileSystem = new MemoryFileSystem();
  await writeFile(fileSystem, "/server.properties", config);
  return fileSystem;
}

async function run(fileSystem: MemoryFileSystem, args: string[]) {
  const lines: string[] = [];
  const errors: string[] = [];
  const io = {
    fileSystem,
    random: new SeededRandom(11),
    clock: new ManualClock(),
    environment: {},
    write: (line: string) => lines.push(line),
    error: (line: string) => errors.push(line),
  };
  return { code: await format(args, io), lines, errors };
}

test("random-uuid prints a 22-character cluster id that reads back as a Uuid", () => {
  const lines: string[] = [];
  const io = { random: new SeededRandom(5), write: (l: string) => lines.push(l), error: () => {} };
  assert.equal(randomUuid([], io), 0);
  assert.equal(lines[0]?.length, 22);
  assert.notEqual(uuidFromBase64(lines[0] ?? ""), undefined);
});

test("format writes meta.properties into every log dir, then refuses to do it again", async () => {
  const fileSystem = await setUp();
  const clusterId = "MkU3OEVBNTcwNTJENDM2Qg";
  const args = ["--config", "/server.properties", "--cluster-id", clusterId];
  const first = await run(fileSystem, args);
  assert.equal(first.code, 0, first.errors.join("\n"));
  const a = await readMetaProperties(fileSystem, "/data/a");
  const b = await readMetaProperties(fileSystem, "/data/b");
  assert.equal(a?.clusterId, clusterId);
  assert.equal(a?.nodeId, 3);
  assert.notEqual(a?.directoryId, b?.directoryId, "each dir gets its own directory.id");
  const again = await run(fileSystem, args);
  assert.equal(again.code, 1);
  assert.match(again.errors[0] ?? "", /already formatted. Use --ignore-formatted/);
  const ignored = await run(fileSystem, [...args, "--ignore-formatted"]);
  assert.equal(ignored.code, 0);
  const other = await run(fileSystem, [
    "--config",
    "/server.properties",
    "--cluster-id",
    "AAAAAAAAAAAAAAAAAAAAAQ",
    "--ignore-formatted",
  ]);
  assert.equal(other.code, 1);
  assert.match(other.errors[0] ?? "", /formatted for cluster MkU3OEVBNTcwNTJENDM2Qg/);
});

test(
  "format refuses a cluster id that is not a Uuid and a configuration " + "with problems",
  async () => {
    const fileSystem = await setUp();
    const badId = await run(fileSystem, ["--config", "/server.properties", "--cluster-id", "nope"]);
    assert.equal(badId.code, 1);
    const badConfig = await run(fileSystem, [
      "--config",
      "/server.properties",
      "--cluster-id",
      "MkU3OEVBNTcwNTJENDM2Qg",
      "--set",
      "node.id=x",
    ]);
    assert.equal(badConfig.code, 1);
    assert.deepEqual(badConfig.errors, [
      'node.id (from flag --set node.id=x): "x" is not an integer',
    ]);
    assert.equal((await run(fileSystem, ["--config", "/server.properties"])).code, 2);
  },
);

/** Formats the node of `config` with a `--feature` for each of `features`. */
async function formatWith(features: string[]) {
  const fileSystem = await setUp();
  const args = ["--config", "/server.properties", "--cluster-id", "MkU3OEVBNTcwNTJENDM2Qg"];
  const result = await run(fileSystem, [...args, ...features.flatMap((f) => ["--feature", f])]);
  return { ...result, fileSystem };
}

/** The image a new cluster's controller bootstraps from the metadata log dir /data/a. */
async function bootstrappedImage(fileSystem: MemoryFileSystem) {
  const options = await readControllerBootstrap(fileSystem, "/data/a");
  const delta = new MetadataDelta(EMPTY_IMAGE);
  delta.replayAll(bootstrapRecords(options));
  return delta.apply({ lastContainedOffset: 1, lastContainedEpoch: 1 });
}

test("format --feature eligible.leader.replicas.version=1 starts a cluster with ELR", async () => {
  const formatted = await formatWith(["eligible.leader.replicas.version=1"]);
  assert.equal(formatted.code, 0, formatted.errors.join("\n"));
  assert.ok(formatted.lines.some((line) => /eligible.leader.replicas.version=1/.test(line)));
  const image = await bootstrappedImage(formatted.fileSystem);
  assert.equal(isElrEnabled(image), true);
  assert.equal(image.features.metadataVersion, 22);
  const stat = await formatted.fileSystem.stat(`/data/b/${BOOTSTRAP_METADATA_FILE}`);
  assert.equal(stat, undefined, "only the metadata log dir holds the bootstrap metadata");
});

test("format without --feature bootstraps the defaults: ELR off", async () => {
  const formatted = await formatWith([]);
  assert.equal(formatted.code, 0, formatted.errors.join("\n"));
  const image = await bootstrappedImage(formatted.fileSystem);
  assert.equal(isElrEnabled(image), false);
  const levels = await formatWith(["metadata.version=17", "eligible.leader.replicas.version=0"]);
  assert.equal((await bootstrappedImage(levels.fileSystem)).features.metadataVersion, 17);
});

test("format refuses unknown features, levels the nodes cannot run and bad syntax", async () => {
  const cases: [string[], RegExp][] = [
    [["group.version=1"], /unsupported feature group.version/],
    [["eligible.leader.replicas.version=2"], /has no level 2; it runs 0 to 1/],
    [["metadata.version=6"], /has no level 6/],
    [["eligible.leader.replicas.version"], /is not NAME=LEVEL/],
    [["metadata.version=22", "metadata.version=21"], /given twice/],
  ];
  for (const [features, message] of cases) {
    const refused = await formatWith(features);
    assert.equal(refused.code, 1, features.join(" "));
    assert.match(refused.errors.join("\n"), message);
    const stat = await refused.fileSystem.stat("/data/a/meta.properties");
    assert.equal(stat, undefined, "nothing is formatted");
  }
});

test("without bootstrap metadata a node starts with defaults; a broken file stops it", async () => {
  const fileSystem = new MemoryFileSystem();
  await fileSystem.mkdir("/data/a", { recursive: true });
  assert.deepEqual(await readControllerBootstrap(fileSystem, "/data/a"), {});
  await writeFile(fileSystem, `/data/a/${BOOTSTRAP_METADATA_FILE}`, "not record batches at all");
  await assert.rejects(readControllerBootstrap(fileSystem, "/data/a"), NodeStartError);
});
