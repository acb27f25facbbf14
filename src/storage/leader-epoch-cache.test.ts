import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LeaderEpochCache } from "./leader-epoch-cache.js";
import { LeaderEpochFileCache } from "./leader-epoch-cache.driver.js";
import { MalformedFileError } from "./malformed-file-error.js";
import { MemoryFileSystem } from "./memory-file-system.test-support.js";

function entriesOf(cache: LeaderEpochCache): [number, number][] {
  return cache.epochEntries().map((entry) => [entry.epoch, entry.startOffset]);
}

test("assign ignores a repeat of the latest epoch at the same or a later offset", () => {
  const cache = new LeaderEpochCache();
  assert.equal(cache.assign(2, 10), true);
  assert.equal(cache.assign(2, 10), false);
  assert.equal(cache.assign(2, 15), false);
  assert.equal(cache.assign(3, 20), true);
  assert.deepEqual(entriesOf(cache), [
    [2, 10],
    [3, 20],
  ]);
});

test("assign removes latest entries that conflict with the new one", () => {
  const cache = new LeaderEpochCache();
  cache.assign(2, 10);
  cache.assign(3, 20);
  cache.assign(5, 30);
  // A larger epoch at a smaller start offset: the entries at or after offset 25 go.
  assert.equal(cache.assign(6, 25), true);
  assert.deepEqual(entriesOf(cache), [
    [2, 10],
    [3, 20],
    [6, 25],
  ]);
  // A smaller epoch than the latest removes the latest ones at or above it.
  assert.equal(cache.assign(4, 27), true);
  assert.deepEqual(entriesOf(cache), [
    [2, 10],
    [3, 20],
    [4, 27],
  ]);
  // The latest epoch again at a smaller offset moves its start back.
  assert.equal(cache.assign(4, 22), true);
  assert.deepEqual(entriesOf(cache), [
    [2, 10],
    [3, 20],
    [4, 22],
  ]);
});

test("endOffsetFor answers OffsetsForLeaderEpoch as Kafka does", () => {
  const cache = new LeaderEpochCache([
    { epoch: 2 as never, startOffset: 10 as never },
    { epoch: 4 as never, startOffset: 20 as never },
    { epoch: 7 as never, startOffset: 35 as never },
  ]);
  const answer = (epoch: number): [number, number] => {
    const result = cache.endOffsetFor(epoch, 50);
    return [result.leaderEpoch, result.endOffset];
  };
  assert.deepEqual(answer(7), [7, 50], "the latest epoch ends at the log end offset");
  assert.deepEqual(answer(4), [4, 35]);
  assert.deepEqual(answer(5), [4, 35], "an unknown epoch answers with the largest one below it");
  assert.deepEqual(answer(2), [2, 20]);
  assert.deepEqual(answer(1), [1, 10], "below every epoch: the first start offset");
  assert.deepEqual(answer(8), [-1, -1]);
  assert.deepEqual(answer(-1), [-1, -1]);
  assert.deepEqual(
    [new LeaderEpochCache().endOffsetFor(0, 0)].map((r) => r.endOffset),
    [-1],
  );
});

test("truncation from the end and from the start", () => {
  const cache = new LeaderEpochCache();
  cache.assign(1, 0);
  cache.assign(2, 10);
  cache.assign(3, 20);
  assert.equal(cache.truncateFromEnd(25), false);
  assert.equal(cache.truncateFromEnd(20), true);
  assert.deepEqual(entriesOf(cache), [
    [1, 0],
    [2, 10],
  ]);
  assert.equal(cache.truncateFromStart(10), true);
  assert.deepEqual(entriesOf(cache), [[2, 10]], "an entry starting at the new start stays");
  assert.equal(cache.truncateFromStart(10), false);
  assert.equal(cache.truncateFromStart(15), true);
  assert.deepEqual(entriesOf(cache), [[2, 15]]);
  assert.equal(cache.epochForOffset(14), undefined);
  assert.equal(cache.epochForOffset(15), 2);
  assert.equal(cache.epochForOffset(1000), 2);
});

/** A plain model of Kafka's rules over a map from epoch to start offset, sorted on demand. */
class ModelCache {
  epochs = new Map<number, number>();
  sorted(): [number, number][] {
    return [...this.epochs].sort((left, right) => left[0] - right[0]);
  }
  assign(epoch: number, start: number): void {
    const latest = this.sorted().at(-1);
    if (latest !== undefined && latest[0] === epoch && start >= latest[1]) return;
    for (const [otherEpoch, otherStart] of this.sorted().reverse()) {
      if (otherEpoch < epoch && otherStart < start) break;
      this.epochs.delete(otherEpoch);
    }
    this.epochs.set(epoch, start);
  }
  truncateFromEnd(end: number): void {
    for (const [epoch, start] of this.sorted()) if (start >= end) this.epochs.delete(epoch);
  }
  truncateFromStart(startOffset: number): void {
    const below = this.sorted().filter(([, start]) => start <= startOffset);
    for (const [epoch] of below) this.epochs.delete(epoch);
    const last = below.at(-1);
    if (last !== undefined) this.epochs.set(last[0], startOffset);
  }
  endOffsetFor(requested: number, logEndOffset: number): [number, number] {
    const entries = this.sorted();
    if (requested === -1) return [-1, -1];
    if (entries.at(-1)?.[0] === requested) return [requested, logEndOffset];
    const higher = entries.find(([epoch]) => epoch > requested);
    if (higher === undefined) return [-1, -1];
    const floor = entries.filter(([epoch]) => epoch <= requested).at(-1);
    return [floor === undefined ? requested : floor[0], higher[1]];
  }
}

const arbitraryOperation = fc.oneof(
  fc.record({ kind: fc.constant("assign" as const), epoch: fc.nat(12), offset: fc.nat(100) }),
  fc.record({ kind: fc.constant("end" as const), offset: fc.integer({ min: -1, max: 100 }) }),
  fc.record({ kind: fc.constant("start" as const), offset: fc.nat(100) }),
);

test("the cache agrees with a plain model over any sequence of changes", () => {
  fc.assert(
    fc.property(
      fc.array(arbitraryOperation, { maxLength: 40 }),
      fc.integer({ min: -1, max: 14 }),
      (operations, requested) => {
        const cache = new LeaderEpochCache();
        const model = new ModelCache();
        for (const operation of operations) {
          if (operation.kind === "assign") {
            cache.assign(operation.epoch, operation.offset);
            model.assign(operation.epoch, operation.offset);
          } else if (operation.kind === "end") {
            cache.truncateFromEnd(operation.offset);
            if (operation.offset >= 0) model.truncateFromEnd(operation.offset);
          } else {
            cache.truncateFromStart(operation.offset);
            model.truncateFromStart(operation.offset);
          }
          assert.deepEqual(entriesOf(cache), model.sorted());
        }
        const result = cache.endOffsetFor(requested, 200);
        assert.deepEqual(
          [result.leaderEpoch, result.endOffset],
          model.endOffsetFor(requested, 200),
        );
        const entries = entriesOf(cache);
        for (let index = 1; index < entries.length; index++) {
          const [epoch, start] = entries[index] as [number, number];
          const [previousEpoch, previousStart] = entries[index - 1] as [number, number];
          assert.ok(epoch > previousEpoch && start > previousStart, "entries strictly increase");
        }
      },
    ),
    { seed: 31, numRuns: 500 },
  );
});

test("the file cache writes its checkpoint on assign and on flush after truncation", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/logs/orders-0", { recursive: true });
  const path = "/logs/orders-0/leader-epoch-checkpoint";
  const text = (): string => new TextDecoder().decode(disk.contentOf(path));
  const fileCache = await LeaderEpochFileCache.load(disk, "/logs/orders-0");
  assert.deepEqual(fileCache.epochEntries(), []);
  await fileCache.assign(0, 0);
  await fileCache.assign(3, 250);
  assert.equal(text(), "0\n2\n0 0\n3 250\n");
  assert.equal(fileCache.truncateFromEnd(250), true);
  assert.equal(text(), "0\n2\n0 0\n3 250\n", "truncation alone does not write");
  await fileCache.flush();
  assert.equal(text(), "0\n1\n0 0\n");
  const reloaded = await LeaderEpochFileCache.load(disk, "/logs/orders-0");
  assert.deepEqual(reloaded.epochEntries(), [{ epoch: 0, startOffset: 0 }]);
  assert.deepEqual(reloaded.endOffsetFor(0, 90), { leaderEpoch: 0, endOffset: 90 });
});

test("a checkpoint with a negative epoch is malformed", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/p");
  const handle = await disk.open("/p/leader-epoch-checkpoint", { create: true });
  await handle.write(new TextEncoder().encode("0\n1\n-3 5\n"), 0);
  await handle.close();
  await assert.rejects(LeaderEpochFileCache.load(disk, "/p"), MalformedFileError);
});
