import { test } from "node:test";
import assert from "node:assert/strict";
import { offset, partitionIndex } from "../common/index.js";
import { isFileSystemError } from "../ports/index.js";
import { readTextFileIfExists, writeTextFileAtomically } from "./atomic-file.driver.js";
import { offsetCheckpointFile, RECOVERY_POINT_CHECKPOINT_FILE } from "./checkpoint-file.driver.js";
import { MalformedFileError } from "./malformed-file-error.js";
import { MemoryFileSystem } from "./memory-file-system.test-support.js";

// The crash tests of atomic writes run on the simulated disk: test/storage/file-crash.test.ts.

test("an offset checkpoint file is written and read back", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/data");
  const checkpoint = offsetCheckpointFile(disk, "/data", RECOVERY_POINT_CHECKPOINT_FILE);
  assert.deepEqual(await checkpoint.read(), []);
  const entries = [
    { topic: "orders", partition: partitionIndex(0), offset: offset(1234) },
    { topic: "orders", partition: partitionIndex(1), offset: offset(99) },
  ];
  await checkpoint.write(entries);
  assert.deepEqual(await checkpoint.read(), entries);
  const bytes = disk.contentOf("/data/recovery-point-offset-checkpoint");
  assert.equal(new TextDecoder().decode(bytes), "0\n2\norders 0 1234\norders 1 99\n");
  assert.deepEqual(await disk.readdir("/data"), ["recovery-point-offset-checkpoint"]);
});

test("overlapping checkpoint writes run one after the other and the last one wins", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/data");
  const checkpoint = offsetCheckpointFile(disk, "/data", "replication-offset-checkpoint");
  const writes = [1, 2, 3].map((value) =>
    checkpoint.write([{ topic: "t", partition: partitionIndex(0), offset: offset(value) }]),
  );
  await Promise.all(writes);
  assert.deepEqual(await checkpoint.read(), [{ topic: "t", partition: 0, offset: 3 }]);
});

test("a malformed checkpoint file is a MalformedFileError naming the file", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/data");
  await writeTextFileAtomically(disk, "/data/log-start-offset-checkpoint", "0\n3\norders 0 1\n");
  const checkpoint = offsetCheckpointFile(disk, "/data", "log-start-offset-checkpoint");
  await assert.rejects(checkpoint.read(), (error: unknown) => {
    assert.ok(error instanceof MalformedFileError);
    assert.equal(error.path, "/data/log-start-offset-checkpoint");
    return true;
  });
});

test("non-UTF-8 bytes are a malformed file; a missing folder is an I/O error", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/data");
  const handle = await disk.open("/data/bad", { create: true });
  await handle.write(Uint8Array.of(0x30, 0x0a, 0xff, 0x0a), 0);
  await handle.close();
  await assert.rejects(readTextFileIfExists(disk, "/data/bad"), MalformedFileError);
  await assert.rejects(writeTextFileAtomically(disk, "/missing/file", "x"), (error: unknown) =>
    isFileSystemError(error, "ENOENT"),
  );
});
