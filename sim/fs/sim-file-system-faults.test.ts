import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { isFileSystemError, type FileSystemErrorCode } from "../../src/ports/index.js";
import { Scheduler } from "../scheduler.js";
import { settle } from "../settle.js";
import { SimFileSystem, type SimFileSystemOptions } from "./sim-file-system.js";

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

test("an injected EIO fails matching calls without effect, once or until removed", async () => {
  const { fs, run } = setup();
  await run(fs.mkdir("/data/a", { recursive: true }));
  const file = await run(fs.open("/data/a/log", { create: true }));
  fs.injectFault({ code: "EIO", operations: ["append"], path: "/data/a", times: 1 });
  await rejectsWith(run(file.append(new Uint8Array([1]))), "EIO");
  assert.equal(await run(file.size()), 0, "a failed append wrote nothing");
  assert.equal(await run(file.append(new Uint8Array([2]))), 0, "the rule fired once");
  const always = fs.injectFault({ code: "EIO", path: (path) => path.endsWith("/log") });
  await rejectsWith(run(file.sync()), "EIO");
  await rejectsWith(run(file.read(new Uint8Array(1), 0, 1, 0)), "EIO");
  await run(fs.mkdir("/data/b"));
  always.remove();
  await run(file.sync());
  fs.injectFault({ code: "ENOSPC", operations: ["open"] });
  await rejectsWith(run(fs.open("/data/b/x", { create: true })), "ENOSPC");
  fs.clearFaults();
  await run(fs.open("/data/b/x", { create: true }));
});

test("a fault with a probability fails some calls, the same ones for the same seed", async () => {
  const pattern = async (seed: number): Promise<string> => {
    const { fs, run } = setup({}, seed);
    const file = await run(fs.open("/log", { create: true }));
    fs.injectFault({ code: "EIO", operations: ["append"], probability: 0.5 });
    let outcomes = "";
    for (let index = 0; index < 40; index++) {
      outcomes += await run(file.append(new Uint8Array(1))).then(
        () => "o",
        () => "x",
      );
    }
    return outcomes;
  };
  const first = await pattern(9);
  assert.equal(first, await pattern(9));
  assert.match(first, /o/);
  assert.match(first, /x/);
});

test("a full disk refuses growth with ENOSPC, and unlinking frees space", async () => {
  const { fs, run } = setup({ capacityBytes: 100 });
  const first = await run(fs.open("/a", { create: true }));
  await run(first.append(new Uint8Array(60)));
  const second = await run(fs.open("/b", { create: true }));
  await rejectsWith(run(second.append(new Uint8Array(41))), "ENOSPC");
  await rejectsWith(run(second.write(new Uint8Array(1), 40)), "ENOSPC");
  assert.equal(await run(second.size()), 0);
  await run(second.append(new Uint8Array(40)));
  await run(first.write(new Uint8Array(10), 0));
  assert.equal(fs.usedBytes, 100);
  await run(fs.unlink("/a"));
  await run(second.append(new Uint8Array(60)));
  assert.equal(fs.usedBytes, 100);
});

/** Checks that `content` is what a crash may leave of a file written as `writes`. */
function checkCrashState(content: Uint8Array, writes: readonly Uint8Array[], synced: number) {
  const written = Uint8Array.from(writes.flatMap((write) => [...write]));
  assert.ok(content.length >= synced, "every synced byte survives");
  assert.deepEqual(content.subarray(0, synced), written.subarray(0, synced));
  // Some whole number of writes survived intact, at least as many as were synced...
  let boundary = 0;
  let next = 0;
  while (next < writes.length && boundary + (writes[next]?.length ?? 0) <= content.length) {
    const end = boundary + (writes[next]?.length ?? 0);
    if (
      !content.subarray(boundary, end).every((byte, index) => byte === written[boundary + index])
    ) {
      break;
    }
    boundary = end;
    next += 1;
  }
  assert.ok(boundary >= synced, "the surviving writes cover the synced bytes");
  // ...and at most the one write after them is partly there (a prefix of it, or garbage).
  const rest = content.length - boundary;
  assert.ok(rest === 0 || rest <= (writes[next]?.length ?? 0), "at most one write is torn");
}

test("a crash leaves synced bytes, whole later writes and one torn write at most", async () => {
  const writePlan = fc.array(
    fc.record({ length: fc.integer({ min: 1, max: 50 }), isSyncAfter: fc.boolean() }),
    { minLength: 1, maxLength: 12 },
  );
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 1_000_000 }), writePlan, async (seed, plan) => {
      const crash = { keepUnsyncedProbability: 0.7, tornWriteProbability: 0.7 };
      const { node, fs, run } = setup({ crash }, seed);
      const file = await run(fs.open("/log", { create: true }));
      await run(fs.syncDirectory("/"));
      const writes: Uint8Array[] = [];
      let synced = 0;
      let total = 0;
      for (const step of plan) {
        const data = new Uint8Array(step.length).map((_, index) => (total + index) % 251);
        writes.push(data);
        total += data.length;
        await run(file.append(data));
        if (step.isSyncAfter) await run(file.sync());
        if (step.isSyncAfter) synced = total;
      }
      node.crash();
      checkCrashState(fs.peekFile("/log") ?? new Uint8Array(0), writes, synced);
    }),
    { seed: 20240601, numRuns: 300 },
  );
});
