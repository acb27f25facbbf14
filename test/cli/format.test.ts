import { test } from "node:test";
import assert from "node:assert/strict";
import { format } from "../../src/cli/format.js";
import { randomUuid } from "../../src/cli/random-uuid.js";
import { uuidFromBase64 } from "../../src/common/index.js";
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

async function setUp(): Promise<MemoryFileSystem> {
  const fileSystem = new MemoryFileSystem();
  const handle = await fileSystem.open("/server.properties", { create: true });
  await handle.write(new TextEncoder().encode(config), 0);
  await handle.close();
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
