import { test } from "node:test";
import assert from "node:assert/strict";
import { isFileSystemError, type FileSystemErrorCode } from "../../src/ports/index.js";
import { Scheduler } from "../scheduler.js";
import { settle } from "../settle.js";
import { loseAllUnsynced } from "./crash.js";
import { SimFileSystem, type SimFileSystemOptions } from "./sim-file-system.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined): string | undefined =>
  data === undefined ? undefined : new TextDecoder().decode(data);

function setup(options: SimFileSystemOptions = {}, seed = 1) {
  const scheduler = new Scheduler({ seed });
  const node = scheduler.node("broker-1");
  const fs = new SimFileSystem(scheduler, node, options);
  const run = <T>(work: Promise<T>): Promise<T> => settle(scheduler, work);
  return { scheduler, node, fs, run };
}

async function rejectsWith(work: Promise<unknown>, code: FileSystemErrorCode): Promise<void> {
  await assert.rejects(work, (error: unknown) => {
    assert.ok(isFileSystemError(error, code), `expected ${code}, got ${String(error)}`);
    return true;
  });
}

test("files are written, read, sized and truncated after a simulated latency", async () => {
  const { scheduler, fs, run } = setup();
  await run(fs.mkdir("/data/orders-0", { recursive: true }));
  const file = await run(fs.open("/data/orders-0/0.log", { create: true }));
  const positions = await run(Promise.all([file.append(bytes("abc")), file.append([bytes("de")])]));
  assert.deepEqual(positions, [0, 3]);
  await run(file.write(bytes("Z"), 7));
  assert.equal(await run(file.size()), 8);
  const target = new Uint8Array(10);
  assert.equal(await run(file.read(target, 1, 10 - 1, 0)), 8);
  assert.deepEqual([...target.subarray(1, 9)], [97, 98, 99, 100, 101, 0, 0, 90]);
  await run(file.truncate(2));
  assert.equal(text(fs.peekFile("/data/orders-0/0.log")), "ab");
  assert.ok(scheduler.nowMs() > 0, "calls take simulated time");
  await run(file.close());
  await rejectsWith(run(file.append(bytes("x"))), "EBADF");
  const reader = await run(fs.open("/data/orders-0/0.log", { readOnly: true }));
  await rejectsWith(run(reader.write(bytes("x"), 0)), "EBADF");
});

test("folder calls follow POSIX answers", async () => {
  const { fs, run } = setup();
  await rejectsWith(run(fs.open("/missing")), "ENOENT");
  await rejectsWith(run(fs.open("/a/b", { create: true })), "ENOENT");
  await run(fs.mkdir("/a"));
  await rejectsWith(run(fs.mkdir("/a")), "EEXIST");
  const created = await run(fs.open("/a/f", { create: true }));
  await run(created.close());
  await rejectsWith(run(fs.open("/a/f", { create: true, exclusive: true })), "EEXIST");
  await rejectsWith(run(fs.open("/a")), "EISDIR");
  await rejectsWith(run(fs.readdir("/a/f")), "ENOTDIR");
  await rejectsWith(run(fs.open("/a/f/g", { create: true })), "ENOTDIR");
  await rejectsWith(run(fs.rmdir("/a")), "ENOTEMPTY");
  await rejectsWith(run(fs.unlink("/a")), "EISDIR");
  await run(fs.mkdir("/a/z"));
  await run(fs.mkdir("/a/B"));
  assert.deepEqual(await run(fs.readdir("/a")), ["B", "f", "z"]);
  await rejectsWith(run(fs.rename("/a/f", "/a/z")), "EISDIR");
  await run(fs.rename("/a/f", "/a/g"));
  assert.equal((await run(fs.stat("/a/g")))?.isFile, true);
  assert.equal(await run(fs.stat("/a/f")), undefined);
  await run(fs.rmdir("/a", { recursive: true }));
  assert.deepEqual(await run(fs.readdir("/")), []);
});

test("a crash keeps synced data and loses exactly what was not synced", async () => {
  const { node, fs, run } = setup({ crash: loseAllUnsynced });
  await run(fs.mkdir("/data"));
  await run(fs.syncDirectory("/"));
  const file = await run(fs.open("/data/log", { create: true }));
  await run(fs.syncDirectory("/data"));
  await run(file.append(bytes("synced.")));
  await run(file.datasync());
  await run(file.append(bytes("lost")));
  const unnamed = await run(fs.open("/data/not-in-dir", { create: true }));
  await run(unnamed.append(bytes("data")));
  await run(unnamed.sync());
  node.crash();
  node.restart();
  assert.equal(text(fs.peekFile("/data/log")), "synced.");
  assert.deepEqual(fs.peekDirectory("/data"), ["log"], "an entry never synced is gone");
  assert.equal(fs.usedBytes, 7);
});

test("a rename becomes durable only when its folder is synced", async () => {
  const { node, fs, run } = setup({ crash: loseAllUnsynced });
  const writeCheckpoint = async (content: string): Promise<void> => {
    const temporary = await run(fs.open("/checkpoint.tmp", { create: true, truncate: true }));
    await run(temporary.append(bytes(content)));
    await run(temporary.sync());
    await run(temporary.close());
    await run(fs.rename("/checkpoint.tmp", "/checkpoint"));
  };
  await writeCheckpoint("1");
  await run(fs.syncDirectory("/"));
  await writeCheckpoint("2");
  node.crash();
  node.restart();
  assert.equal(text(fs.peekFile("/checkpoint")), "1", "the rename was lost with the crash");
  assert.equal(fs.peekFile("/checkpoint.tmp"), undefined, "the temporary name was never durable");
  await writeCheckpoint("3");
  await run(fs.syncDirectory("/"));
  node.crash();
  node.restart();
  assert.equal(text(fs.peekFile("/checkpoint")), "3");
  assert.deepEqual(fs.peekDirectory("/"), ["checkpoint"]);
});

test("calls in flight at a crash never complete, and old handles stay dead", async () => {
  const { scheduler, node, fs, run } = setup();
  const file = await run(fs.open("/log", { create: true }));
  let isSettled = false;
  file.append(bytes("x")).then(
    () => (isSettled = true),
    () => (isSettled = true),
  );
  node.crash();
  node.restart();
  await scheduler.runFor(1000);
  assert.equal(isSettled, false);
  await assert.rejects(settle(scheduler, file.size(), scheduler.nowMs() + 1000), /did not settle/);
  assert.deepEqual(await run(fs.readdir("/")), [], "the new process works; /log was never durable");
});
