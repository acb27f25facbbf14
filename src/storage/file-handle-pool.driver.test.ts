import assert from "node:assert/strict";
import { test } from "node:test";
import {
  FileSystemError,
  isFileSystemError,
  type FileHandle,
  type FileSystem,
  type OpenOptions,
} from "../ports/index.js";
import { FileHandlePool } from "./file-handle-pool.driver.js";
import { MemoryFileSystem } from "./memory-file-system.test-support.js";

/** A disk whose process holds at most `limit` descriptors, failing opens past it with EMFILE. */
class LimitedFileSystem extends MemoryFileSystem {
  open_ = 0;
  peak = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override async open(path: string, options?: OpenOptions): Promise<FileHandle> {
    if (this.open_ >= this.limit) throw new FileSystemError("EMFILE", "open", path);
    const handle = await super.open(path, options);
    this.open_ += 1;
    this.peak = Math.max(this.peak, this.open_);
    let isClosed = false;
    const close = async (): Promise<void> => {
      if (!isClosed) this.open_ -= 1;
      isClosed = true;
      await handle.close();
    };
    return Object.assign(Object.create(handle) as FileHandle, { close });
  }
}

const text = (value: string) => new TextEncoder().encode(value);

async function readAll(handle: FileHandle): Promise<string> {
  const size = await handle.size();
  const bytes = new Uint8Array(size);
  await handle.read(bytes, 0, size, 0);
  return new TextDecoder().decode(bytes);
}

async function openMany(fs: FileSystem, count: number, folder = "/d"): Promise<FileHandle[]> {
  await fs.mkdir(folder, { recursive: true });
  const handles: FileHandle[] = [];
  for (let index = 0; index < count; index++) {
    const handle = await fs.open(`${folder}/f${index}`, { create: true });
    await handle.append(text(`file ${index}`));
    handles.push(handle);
  }
  return handles;
}

test("a pool keeps at most its budget of descriptors and reopens closed files on use", async () => {
  const disk = new LimitedFileSystem(1000);
  const pool = new FileHandlePool(disk, 4);
  const handles = await openMany(pool, 20);
  assert.ok(disk.peak <= 4, `peak ${disk.peak}`);
  for (const [index, handle] of handles.entries()) {
    assert.equal(await readAll(handle), `file ${index}`);
    await handle.append(text("!"));
  }
  for (const [index, handle] of handles.entries()) {
    assert.equal(await readAll(handle), `file ${index}!`);
  }
  assert.ok(disk.peak <= 4, `peak ${disk.peak}`);
  assert.ok(pool.stats().idleCloses > 0);
  for (const handle of handles) await handle.close();
  assert.equal(disk.open_, 0);
  assert.equal(pool.stats().openFiles, 0);
});

test("operations issued at once on many files wait for room within the budget", async () => {
  const disk = new LimitedFileSystem(1000);
  const pool = new FileHandlePool(disk, 3);
  const handles = await openMany(pool, 12);
  const contents = await Promise.all(handles.map((handle) => readAll(handle)));
  assert.deepEqual(
    contents,
    handles.map((_, index) => `file ${index}`),
  );
  assert.ok(disk.peak <= 3, `peak ${disk.peak}`);
});

test("a handle follows its file through renames of the file and of its folder", async () => {
  const disk = new LimitedFileSystem(1000);
  const pool = new FileHandlePool(disk, 2);
  const [first, second] = await openMany(pool, 2);
  assert.ok(first !== undefined && second !== undefined);
  await pool.rename("/d/f0", "/d/f0.deleted");
  await openMany(pool, 4, "/other"); // the budget closes the idle descriptors of /d
  assert.equal(await readAll(first), "file 0");
  await pool.rename("/d", "/e");
  assert.equal(await readAll(second), "file 1");
  assert.equal(first.path, "/e/f0.deleted");
  assert.equal(second.path, "/e/f1");
});

test("a file removed while open stays readable through its handle", async () => {
  const disk = new LimitedFileSystem(1000);
  const pool = new FileHandlePool(disk, 2);
  const [first] = await openMany(pool, 1);
  assert.ok(first !== undefined);
  await pool.unlink("/d/f0");
  await openMany(pool, 6, "/other");
  assert.equal(await readAll(first), "file 0");
  await first.close();
  await assert.rejects(first.size(), (error) => isFileSystemError(error, "EBADF"));
});

test("a process out of descriptors closes idle ones and tries again", async () => {
  const disk = new LimitedFileSystem(3);
  const pool = new FileHandlePool(disk, 100);
  const handles = await openMany(pool, 10);
  for (const [index, handle] of handles.entries()) {
    assert.equal(await readAll(handle), `file ${index}`);
  }
  assert.ok(disk.peak <= 3);
});

test("EMFILE with nothing idle to close reaches the caller as EMFILE", async () => {
  const disk = new LimitedFileSystem(2);
  const pool = new FileHandlePool(disk, 100);
  await disk.mkdir("/d");
  const outside = [
    await disk.open("/d/x", { create: true }),
    await disk.open("/d/y", { create: true }),
  ];
  await assert.rejects(pool.open("/d/z", { create: true }), (error) =>
    isFileSystemError(error, "EMFILE"),
  );
  for (const handle of outside) await handle.close();
  const handle = await pool.open("/d/z", { create: true });
  await handle.close();
});

test("a file replaced by a rename stays readable through its handle", async () => {
  const disk = new LimitedFileSystem(1000);
  const pool = new FileHandlePool(disk, 2);
  const [first, second] = await openMany(pool, 2);
  assert.ok(first !== undefined && second !== undefined);
  await second.close();
  await pool.rename("/d/f1", "/d/f0");
  await openMany(pool, 4, "/other");
  assert.equal(await readAll(first), "file 0");
  const replacement = await pool.open("/d/f0");
  assert.equal(await readAll(replacement), "file 1");
});
