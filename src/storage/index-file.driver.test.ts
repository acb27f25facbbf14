import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryFileSystem } from "./memory-file-system.test-support.js";
import { OffsetIndexFile } from "./offset-index.driver.js";
import { TimeIndexFile } from "./time-index.driver.js";

const OPTIONS = { baseOffset: 42, maxIndexSizeBytes: 10_485_760 };
const PATH = "/logs/orders-0/00000000000000000042.index";

async function disk(): Promise<MemoryFileSystem> {
  const fileSystem = new MemoryFileSystem();
  await fileSystem.mkdir("/logs/orders-0", { recursive: true });
  return fileSystem;
}

test("offset index entries are written at their slot and load back after a reopen", async () => {
  const fileSystem = await disk();
  const { offsetIndex, sanity } = await OffsetIndexFile.open(fileSystem, PATH, OPTIONS);
  assert.deepEqual(sanity, { kind: "sane" });
  await offsetIndex.append(50, 4100);
  await offsetIndex.append(60, 8300);
  assert.equal(fileSystem.contentOf(PATH)?.length, 16);
  await offsetIndex.close();
  const reopened = await OffsetIndexFile.open(fileSystem, PATH, OPTIONS);
  assert.deepEqual(reopened.sanity, { kind: "sane" });
  assert.deepEqual(reopened.offsetIndex.lookup(55), { offset: 50, position: 4100 });
  await reopened.offsetIndex.truncateTo(60);
  assert.equal(fileSystem.contentOf(PATH)?.length, 8);
});

test("a zero-padded file loads as corrupt and trimToValidSize cuts the tail", async () => {
  const fileSystem = await disk();
  const handle = await fileSystem.open(PATH, { create: true });
  await handle.write(Uint8Array.of(0, 0, 0, 8, 0, 0, 0x10, 0x04), 0);
  await handle.write(new Uint8Array(80), 8);
  await handle.close();
  const { offsetIndex, sanity } = await OffsetIndexFile.open(fileSystem, PATH, OPTIONS);
  assert.equal(sanity.kind, "corrupt");
  assert.equal(offsetIndex.entryCount, 1);
  await offsetIndex.trimToValidSize();
  assert.equal(fileSystem.contentOf(PATH)?.length, 8);
  await offsetIndex.append(70, 9000);
  await offsetIndex.close();
  const reopened = await OffsetIndexFile.open(fileSystem, PATH, OPTIONS);
  assert.deepEqual(reopened.sanity, { kind: "sane" });
  assert.equal(reopened.offsetIndex.entryCount, 2);
});

test("a renamed index keeps working under its new name, and delete removes it", async () => {
  const fileSystem = await disk();
  const { offsetIndex } = await OffsetIndexFile.open(fileSystem, PATH, OPTIONS);
  await offsetIndex.append(50, 4100);
  await offsetIndex.renameTo(`${PATH}.deleted`);
  await offsetIndex.append(51, 4200);
  assert.equal(fileSystem.contentOf(PATH), undefined);
  assert.equal(fileSystem.contentOf(`${PATH}.deleted`)?.length, 16);
  await offsetIndex.delete();
  assert.deepEqual(await fileSystem.readdir("/logs/orders-0"), []);
});

test("time index entries go to the .timeindex file and load back", async () => {
  const fileSystem = await disk();
  const path = "/logs/orders-0/00000000000000000042.timeindex";
  const { timeIndex } = await TimeIndexFile.open(fileSystem, path, OPTIONS);
  assert.equal(await timeIndex.maybeAppend(1000, 45), true);
  assert.equal(await timeIndex.maybeAppend(1000, 46), false);
  assert.equal(await timeIndex.maybeAppend(2000, 50), true);
  await timeIndex.close();
  assert.equal(fileSystem.contentOf(path)?.length, 24);
  const reopened = await TimeIndexFile.open(fileSystem, path, OPTIONS);
  assert.deepEqual(reopened.sanity, { kind: "sane" });
  assert.deepEqual(reopened.timeIndex.lookup(1500), { timestamp: 1000, offset: 45 });
  await reopened.timeIndex.truncateTo(50);
  assert.deepEqual(reopened.timeIndex.lastEntry(), { timestamp: 1000, offset: 45 });
  assert.equal(fileSystem.contentOf(path)?.length, 12);
});
