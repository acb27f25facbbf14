import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { PartitionLog } from "../../src/storage/index.js";
import { LogHarness, concat, makeBatch, testConfig } from "./log-harness.js";

/** The simple model: the batches of the log in order, its end and its start. */
interface Model {
  batches: { baseOffset: number; lastOffset: number; bytes: Uint8Array }[];
  logEndOffset: number;
  logStartOffset: number;
  epoch: number;
}

type Operation =
  | { kind: "leader"; batches: number; records: number; isNewEpoch: boolean }
  | { kind: "follower"; gap: number; records: number }
  | { kind: "read"; from: number; maxBytes: number; maxOffset: number; minOneBatch: boolean }
  | { kind: "truncate"; pick: number }
  | { kind: "deleteRecords"; pick: number }
  | { kind: "roll" }
  | { kind: "retention" }
  | { kind: "restart" };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("leader" as const),
      batches: fc.integer({ min: 1, max: 3 }),
      records: fc.integer({ min: 1, max: 4 }),
      isNewEpoch: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("follower" as const),
      gap: fc.integer({ min: 0, max: 2 }),
      records: fc.integer({ min: 1, max: 4 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("read" as const),
      from: fc.nat(1000),
      maxBytes: fc.integer({ min: 0, max: 900 }),
      maxOffset: fc.nat(1000),
      minOneBatch: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("truncate" as const), pick: fc.nat(1000) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("deleteRecords" as const), pick: fc.nat(1000) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "roll" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "retention" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "restart" as const }) },
);

const config = testConfig({
  segmentBytes: 400,
  indexIntervalBytes: 64,
  retentionBytes: 700,
  retentionMs: -1,
});

/** What the model says a read returns: whole batches, KIP-74 for the first, below maxOffset. */
function modelRead(
  model: Model,
  read: Extract<Operation, { kind: "read" }>,
  from: number,
  maxOffset: number,
): Uint8Array | "outOfRange" {
  if (from < model.logStartOffset || from > model.logEndOffset) return "outOfRange";
  const taken: Uint8Array[] = [];
  let size = 0;
  for (const batch of model.batches) {
    if (batch.lastOffset < from) continue;
    if (batch.lastOffset >= maxOffset) break;
    if (size + batch.bytes.length > read.maxBytes && !(taken.length === 0 && read.minOneBatch))
      break;
    taken.push(batch.bytes);
    size += batch.bytes.length;
  }
  return concat(taken);
}

async function checkRead(
  harness: LogHarness,
  log: PartitionLog,
  model: Model,
  read: Extract<Operation, { kind: "read" }>,
): Promise<void> {
  const span = model.logEndOffset - model.logStartOffset + 3;
  const from = model.logStartOffset - 1 + (read.from % span);
  const maxOffset = from + (read.maxOffset % (span + 1));
  const expected = modelRead(model, read, from, maxOffset);
  const result = await harness.run(
    log.read({
      fromOffset: from,
      maxBytes: read.maxBytes,
      maxOffset,
      minOneBatch: read.minOneBatch,
    }),
  );
  if (expected === "outOfRange") {
    assert.equal(result.kind, "offsetOutOfRange", `read from ${from}`);
    return;
  }
  assert.equal(result.kind, "records", `read from ${from}`);
  if (result.kind !== "records") return;
  const parts = [];
  for (const slice of result.slices) parts.push(await harness.run(log.readBytes(slice)));
  assert.deepEqual(
    concat(parts),
    expected,
    `read from ${from} max ${read.maxBytes} bytes below ${maxOffset}`,
  );
}

async function appendLeader(
  harness: LogHarness,
  log: PartitionLog,
  model: Model,
  op: Extract<Operation, { kind: "leader" }>,
): Promise<void> {
  if (op.isNewEpoch) model.epoch++;
  const parts = Array.from({ length: op.batches }, (_unused, index) =>
    makeBatch({ count: op.records, tag: `l${model.logEndOffset}-${index}` }),
  );
  const input = concat(parts);
  const result = await harness.run(log.appendAsLeader(input, { leaderEpoch: model.epoch }));
  assert.equal(result.firstOffset, model.logEndOffset);
  // The log stamps offsets and the epoch into the input in place; the model keeps those bytes.
  let offset = model.logEndOffset;
  let position = 0;
  for (const part of parts) {
    const bytes = input.subarray(position, position + part.length);
    model.batches.push({ baseOffset: offset, lastOffset: offset + op.records - 1, bytes });
    offset += op.records;
    position += part.length;
  }
  model.logEndOffset = offset;
}

async function apply(
  harness: LogHarness,
  current: { log: PartitionLog },
  model: Model,
  op: Operation,
): Promise<void> {
  const log = current.log;
  switch (op.kind) {
    case "leader":
      return appendLeader(harness, log, model, op);
    case "follower": {
      const baseOffset = model.logEndOffset + op.gap;
      const bytes = makeBatch({
        count: op.records,
        tag: `f${baseOffset}`,
        baseOffset,
        epoch: model.epoch,
      });
      await harness.run(log.appendAsFollower(bytes));
      model.batches.push({ baseOffset, lastOffset: baseOffset + op.records - 1, bytes });
      model.logEndOffset = baseOffset + op.records;
      return;
    }
    case "read":
      return checkRead(harness, log, model, op);
    case "truncate": {
      const boundaries = [
        ...model.batches
          .filter((batch) => batch.lastOffset >= model.logStartOffset)
          .map((batch) => batch.baseOffset),
        model.logEndOffset,
      ];
      const target = Math.max(
        boundaries[op.pick % boundaries.length] ?? model.logEndOffset,
        model.batches[0]?.baseOffset ?? 0,
      );
      await harness.run(log.truncateTo(target));
      if (target < model.logEndOffset) {
        model.batches = model.batches.filter((batch) => batch.baseOffset < target);
        model.logEndOffset = target;
        model.logStartOffset = Math.min(model.logStartOffset, target);
      }
      return;
    }
    case "deleteRecords": {
      const target =
        model.logStartOffset + (op.pick % (model.logEndOffset - model.logStartOffset + 1));
      await harness.run(log.maybeIncrementLogStartOffset(target));
      model.logStartOffset = Math.max(model.logStartOffset, target);
      return;
    }
    case "roll":
      return harness.run(log.roll());
    case "retention": {
      await harness.run(log.deleteOldSegments(0, log.logEndOffset));
      assert.ok(log.logStartOffset >= model.logStartOffset, "retention never moves the start back");
      model.logStartOffset = log.logStartOffset;
      return;
    }
    case "restart": {
      await harness.run(log.close());
      current.log = await harness.open(config, {
        recoveryPoint: model.logEndOffset,
        logStartOffset: model.logStartOffset,
        hadCleanShutdown: true,
      });
      return;
    }
  }
}

test("random operations and restarts agree with a simple model of the log", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40 }), async (operations) => {
      const harness = new LogHarness(++run);
      const current = { log: await harness.open(config) };
      const model: Model = { batches: [], logEndOffset: 0, logStartOffset: 0, epoch: 0 };
      for (const op of operations) {
        await apply(harness, current, model, op);
        assert.equal(current.log.logEndOffset, model.logEndOffset, `after ${op.kind}`);
        assert.equal(current.log.logStartOffset, model.logStartOffset, `after ${op.kind}`);
      }
      await checkRead(harness, current.log, model, {
        kind: "read",
        from: 1,
        maxBytes: 1 << 20,
        maxOffset: 1 << 20,
        minOneBatch: true,
      });
    }),
    { seed: 20240601, numRuns: 80 },
  );
});
