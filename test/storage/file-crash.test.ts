import { test } from "node:test";
import assert from "node:assert/strict";
import { loseAllUnsynced } from "../../sim/index.js";
import {
  OffsetIndexFile,
  readTextFileIfExists,
  writeTextFileAtomically,
} from "../../src/storage/index.js";
import { LogHarness } from "./log-harness.js";

const OLD_TEXT = "0\n1\norders 0 100\n";
const NEW_TEXT = "0\n2\norders 0 200\norders 1 300\n";
const path = "/data/checkpoint";

/** A disk with `/data` made durable and, unless `isFirstWrite`, the old file on it. */
async function diskWithOldFile(seed: number, isFirstWrite: boolean): Promise<LogHarness> {
  const harness = new LogHarness(seed);
  const setUp = async () => {
    await harness.fs.mkdir("/data");
    await harness.fs.syncDirectory("/");
    if (!isFirstWrite) await writeTextFileAtomically(harness.fs, path, OLD_TEXT);
  };
  await harness.run(setUp());
  return harness;
}

/** Crashes an atomic write after each of its simulated events; resolves to what survived. */
async function crashAtEveryStep(isFirstWrite: boolean): Promise<Set<string | undefined>> {
  const reference = await diskWithOldFile(1, isFirstWrite);
  const before = reference.scheduler.eventCount;
  await reference.run(writeTextFileAtomically(reference.fs, path, NEW_TEXT));
  const eventCount = reference.scheduler.eventCount - before;
  const outcomes = new Set<string | undefined>();
  for (let step = 0; step <= eventCount; step++) {
    const harness = await diskWithOldFile(step + 2, isFirstWrite);
    writeTextFileAtomically(harness.fs, path, NEW_TEXT).catch(() => undefined);
    for (let event = 0; event < step; event++) await harness.scheduler.step();
    harness.crash();
    const text = await harness.run(readTextFileIfExists(harness.fs, path));
    const expected = [isFirstWrite ? undefined : OLD_TEXT, NEW_TEXT];
    assert.ok(expected.includes(text), `crash after ${step} events: ${text}`);
    if (step === eventCount) assert.equal(text, NEW_TEXT, "a completed write survives a crash");
    outcomes.add(text);
  }
  return outcomes;
}

test("a crash at any step of an atomic write leaves the old or the new file", async () => {
  const outcomes = await crashAtEveryStep(false);
  assert.deepEqual([...outcomes].sort(), [NEW_TEXT, OLD_TEXT].sort());
});

test("a first atomic write either exists whole after a crash or not at all", async () => {
  const outcomes = await crashAtEveryStep(true);
  assert.deepEqual(outcomes, new Set([undefined, NEW_TEXT]));
});

test("flushed index entries survive a crash and unflushed ones do not", async () => {
  const harness = new LogHarness(3);
  const indexPath = "/logs/orders-0/00000000000000000042.index";
  const options = { baseOffset: 42, maxIndexSizeBytes: 10_485_760 };
  const write = async () => {
    await harness.fs.mkdir("/logs/orders-0", { recursive: true });
    const { offsetIndex } = await OffsetIndexFile.open(harness.fs, indexPath, options);
    for (const folder of ["/", "/logs", "/logs/orders-0"]) await harness.fs.syncDirectory(folder);
    await offsetIndex.append(50, 4100);
    await offsetIndex.flush();
    await offsetIndex.append(60, 8300);
  };
  await harness.run(write());
  harness.fs.crashOptions = loseAllUnsynced;
  harness.crash();
  const reopened = await harness.run(OffsetIndexFile.open(harness.fs, indexPath, options));
  assert.deepEqual(reopened.sanity, { kind: "sane" });
  assert.equal(reopened.offsetIndex.entryCount, 1);
});
