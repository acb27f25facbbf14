import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isFileSystemError, type FileSystemErrorCode } from "../ports/index.js";
import { NodeFileSystem } from "./node-file-system.js";

/** Runs `body` with a fresh temporary folder that is removed afterwards. */
async function withTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "sluice-fs-test-"));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function rejectsWith(promise: Promise<unknown>, code: FileSystemErrorCode): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isFileSystemError(error, code), `expected ${code}, got ${String(error)}`);
    return true;
  });
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array): string => new TextDecoder().decode(data);

test("appends land one after another and positional reads find them", async () => {
  await withTempDir(async (dir) => {
    const fs = new NodeFileSystem();
    const file = await fs.open(join(dir, "00000000000000000000.log"), { create: true });
    const positions = await Promise.all([
      file.append(bytes("hello ")),
      file.append([bytes("wide "), bytes("world")]),
    ]);
    assert.deepEqual(positions, [0, 6]);
    assert.equal(await file.size(), 16);
    const target = new Uint8Array(20);
    assert.equal(await file.read(target, 2, 10, 6), 10);
    assert.equal(text(target.subarray(2, 12)), "wide world");
    assert.equal(await file.read(target, 0, 20, 10), 6, "a read stops at the end of the file");
    await file.sync();
    await file.datasync();
    await file.write(bytes("W"), 6);
    await file.truncate(11);
    assert.equal(await file.append(bytes("!")), 11, "append continues at the truncated end");
    const all = new Uint8Array(12);
    await file.read(all, 0, 12, 0);
    assert.equal(text(all), "hello Wide !");
    await file.close();
    await rejectsWith(file.append(bytes("x")), "EBADF");
  });
});

test("a reopened file appends at its end and read-only handles refuse writes", async () => {
  await withTempDir(async (dir) => {
    const fs = new NodeFileSystem();
    const path = join(dir, "a");
    const first = await fs.open(path, { create: true });
    await first.append(bytes("abc"));
    await first.close();
    const second = await fs.open(path);
    assert.equal(await second.append(bytes("def")), 3);
    await second.close();
    const reader = await fs.open(path, { readOnly: true });
    await rejectsWith(reader.append(bytes("x")), "EBADF");
    await rejectsWith(reader.truncate(0), "EBADF");
    await reader.close();
    const truncated = await fs.open(path, { truncate: true });
    assert.equal(await truncated.size(), 0);
    await truncated.close();
  });
});

test("folder operations rename, list sorted, remove and stat", async () => {
  await withTempDir(async (dir) => {
    const fs = new NodeFileSystem();
    await fs.mkdir(join(dir, "x/y/z"), { recursive: true });
    await fs.mkdir(join(dir, "x/y/z"), { recursive: true });
    for (const name of ["b", "a", "C"])
      await (await fs.open(join(dir, "x", name), { create: true })).close();
    assert.deepEqual(await fs.readdir(join(dir, "x")), ["C", "a", "b", "y"]);
    await fs.rename(join(dir, "x/a"), join(dir, "x/b"));
    assert.deepEqual(await fs.readdir(join(dir, "x")), ["C", "b", "y"]);
    await fs.syncDirectory(join(dir, "x"));
    const stat = await fs.stat(join(dir, "x/b"));
    assert.equal(stat?.isFile, true);
    assert.equal(stat?.isDirectory, false);
    assert.equal(stat?.size, 0);
    assert.equal(await fs.stat(join(dir, "x/a")), undefined);
    await fs.unlink(join(dir, "x/b"));
    await rejectsWith(fs.rmdir(join(dir, "x")), "ENOTEMPTY");
    await rejectsWith(fs.rmdir(join(dir, "x/C"), { recursive: true }), "ENOTDIR");
    await fs.rmdir(join(dir, "x"), { recursive: true });
    assert.equal(await fs.stat(join(dir, "x")), undefined);
  });
});

test("platform errors become FileSystemErrors with their code and the original cause", async () => {
  await withTempDir(async (dir) => {
    const fs = new NodeFileSystem();
    const missing = join(dir, "missing");
    await assert.rejects(fs.open(missing), (error: unknown) => {
      assert.ok(isFileSystemError(error, "ENOENT"));
      assert.equal(error.syscall, "open");
      assert.equal(error.path, missing);
      assert.equal((error.cause as { code?: string }).code, "ENOENT");
      return true;
    });
    await (await fs.open(join(dir, "f"), { create: true })).close();
    await rejectsWith(fs.open(join(dir, "f"), { create: true, exclusive: true }), "EEXIST");
    await rejectsWith(fs.open(dir), "EISDIR");
    await rejectsWith(fs.mkdir(join(dir, "f")), "EEXIST");
    await rejectsWith(fs.readdir(join(dir, "f")), "ENOTDIR");
    await rejectsWith(fs.unlink(missing), "ENOENT");
    await rejectsWith(fs.syncDirectory(missing), "ENOENT");
    await rejectsWith(fs.rename(missing, join(dir, "g")), "ENOENT");
  });
});

test("a volume has a size and usable bytes within it; a missing path fails", async () => {
  await withTempDir(async (dir) => {
    const fs = new NodeFileSystem();
    const space = await fs.volumeSpace(dir);
    assert.ok(space.totalBytes > 0, "total bytes");
    assert.ok(space.usableBytes >= 0 && space.usableBytes <= space.totalBytes, "usable bytes");
    await rejectsWith(fs.volumeSpace(join(dir, "missing")), "ENOENT");
  });
});
