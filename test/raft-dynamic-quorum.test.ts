/**
 * A dynamic quorum from `sluice format` (KIP-853): --standalone writes the bootstrap checkpoint
 * with this controller as the only voter; a node built from it leads at once and writes the
 * voter set into its log, so that controllers formatted without it learn it by fetching.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { format } from "../src/cli/format.js";
import { uuidToBase64 } from "../src/common/index.js";
import {
  controlRecordsOf,
  DEFAULT_RAFT_TIMINGS,
  EMPTY_ELECTION_STATE,
  RaftNode,
} from "../src/raft/index.js";
import { RecordBatchHeader } from "../src/protocol/index.js";
import { readMetaProperties } from "../src/storage/index.js";
import { MemoryFileSystem } from "../src/storage/memory-file-system.test-support.js";
import { ManualClock } from "../sim/clock.js";
import { SeededRandom } from "../sim/random.js";

const CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
const CONFIG = [
  "process.roles=controller",
  "node.id=1",
  "listeners=CONTROLLER://127.0.0.1:19093",
  "controller.listener.names=CONTROLLER",
  "controller.quorum.bootstrap.servers=127.0.0.1:19093",
  "metadata.log.dir=/data/meta",
  "log.dirs=/data/meta",
].join("\n");
const CHECKPOINT = "/data/meta/__cluster_metadata-0/00000000000000000000-0000000000.checkpoint";

async function formatWith(extra: string[]) {
  const fileSystem = new MemoryFileSystem();
  const handle = await fileSystem.open("/server.properties", { create: true });
  await handle.write(new TextEncoder().encode(CONFIG), 0);
  await handle.close();
  const lines: string[] = [];
  const errors: string[] = [];
  const io = {
    fileSystem,
    random: new SeededRandom(7),
    clock: new ManualClock(),
    environment: {},
    write: (line: string) => lines.push(line),
    error: (line: string) => errors.push(line),
  };
  const args = ["--config", "/server.properties", "--cluster-id", CLUSTER_ID, ...extra];
  return { code: await format(args, io), fileSystem, lines, errors };
}

async function readAll(fileSystem: MemoryFileSystem, path: string): Promise<Uint8Array> {
  const stat = await fileSystem.stat(path);
  assert.ok(stat !== undefined, `${path} exists`);
  const handle = await fileSystem.open(path, {});
  const bytes = new Uint8Array(stat.size);
  await handle.read(bytes, 0, stat.size, 0);
  await handle.close();
  // The header batch (SnapshotHeader, KRaftVersion, Voters) comes first.
  return bytes.subarray(0, new RecordBatchHeader(bytes).sizeInBytes);
}

test("format --standalone writes a bootstrap checkpoint naming this controller alone", async () => {
  const { code, fileSystem, errors } = await formatWith(["--standalone"]);
  assert.deepEqual(errors, []);
  assert.equal(code, 0);
  const meta = await readMetaProperties(fileSystem, "/data/meta");
  assert.ok(meta?.directoryId !== undefined);
  const records = controlRecordsOf(await readAll(fileSystem, CHECKPOINT));
  assert.deepEqual(
    records.map((record) => record.value.type),
    ["snapshotHeader", "kraftVersion", "kraftVoters"],
  );
  const voters = records[2]?.value;
  assert.ok(voters?.type === "kraftVoters");
  assert.equal(voters.data.voters.length, 1);
  assert.equal(voters.data.voters[0]?.voterId, 1);
  assert.equal(voters.data.voters[0]?.voterDirectoryId, meta.directoryId);
  assert.deepEqual(
    voters.data.voters[0]?.endpoints.map(({ name, host, port }) => ({ name, host, port })),
    [{ name: "CONTROLLER", host: "127.0.0.1", port: 19093 }],
  );
});

test("a node started from the checkpoint leads at once and logs the voter set", async () => {
  const { fileSystem } = await formatWith(["--standalone"]);
  const meta = await readMetaProperties(fileSystem, "/data/meta");
  assert.ok(meta?.directoryId !== undefined);
  const bytes = await readAll(fileSystem, CHECKPOINT);
  const records = controlRecordsOf(bytes).map((record) => ({ offset: -1, value: record.value }));
  const node = new RaftNode({
    config: {
      nodeId: 1,
      directoryId: meta.directoryId,
      clusterId: CLUSTER_ID,
      listeners: [{ name: "CONTROLLER", host: "127.0.0.1", port: 19093 }],
      bootstrapVoters: [],
      kraftVersion: 1,
      timings: DEFAULT_RAFT_TIMINGS,
    },
    random: new SeededRandom(3),
    electionState: EMPTY_ELECTION_STATE,
    log: {
      logStartOffset: 0,
      endOffset: 0,
      epochs: [],
      snapshots: [{ snapshotId: { endOffset: 0, epoch: 0 }, sizeBytes: bytes.length + 100 }],
      controlRecords: records,
    },
    nowMs: 0,
  });
  const output = node.tick(0);
  assert.equal(node.state.kind, "leader");
  assert.deepEqual(node.voterIds(), [1]);
  const appended = output.append?.batches[0];
  assert.ok(appended !== undefined);
  assert.deepEqual(
    controlRecordsOf(appended).map((record) => [record.offset, record.value.type]),
    [
      [0, "leaderChange"],
      [1, "kraftVersion"],
      [2, "kraftVoters"],
    ],
  );
});

test("format refuses two initial quorums at once and a malformed controller", async () => {
  const both = await formatWith(["--standalone", "--no-initial-controllers"]);
  assert.equal(both.code, 1);
  const bad = await formatWith(["--initial-controllers", "1@127.0.0.1:19093"]);
  assert.equal(bad.code, 1);
  assert.match(bad.errors.join("\n"), /is not ID@HOST:PORT:DIRECTORY_ID/);
});

test("--initial-controllers gives this node the directory id it lists", async () => {
  const directoryId = "AAAAAAAAAAAAAAAAAAAAEg";
  const listed = `1@127.0.0.1:19093:${directoryId}`;
  const { code, fileSystem } = await formatWith(["--initial-controllers", listed]);
  assert.equal(code, 0);
  const meta = await readMetaProperties(fileSystem, "/data/meta");
  assert.equal(meta?.directoryId === undefined ? "" : uuidToBase64(meta.directoryId), directoryId);
  assert.ok((await fileSystem.stat(CHECKPOINT)) !== undefined);
});

test("--no-initial-controllers writes no checkpoint", async () => {
  const { code, fileSystem } = await formatWith(["--no-initial-controllers"]);
  assert.equal(code, 0);
  assert.equal(await fileSystem.stat(CHECKPOINT), undefined);
});
