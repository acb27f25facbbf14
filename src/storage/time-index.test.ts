import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { NO_TIMESTAMP, TimeIndex } from "./time-index.js";

const OPTIONS = { baseOffset: 500, maxIndexSizeBytes: 10_485_760 };

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function bytesOf(hexText: string): Uint8Array {
  return Uint8Array.from(hexText.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

test("two time index entries are a big-endian int64 timestamp and int32 relative offset", () => {
  const index = new TimeIndex(OPTIONS);
  assert.equal(index.maybeAppend(1_700_000_000_000, 510), true);
  assert.equal(index.maybeAppend(1_700_000_000_500, 520), true);
  assert.equal(
    hex(index.encode()),
    "0000018bcfe56800" + "0000000a" + "0000018bcfe569f4" + "00000014",
  );
  const { index: decoded, sanity } = TimeIndex.decode(index.encode(), OPTIONS);
  assert.deepEqual(sanity, { kind: "sane" });
  assert.deepEqual(decoded.lastEntry(), { timestamp: 1_700_000_000_500, offset: 520 });
});

test("only a timestamp above the last one is appended", () => {
  const index = new TimeIndex(OPTIONS);
  assert.deepEqual(index.lastEntry(), { timestamp: NO_TIMESTAMP, offset: 500 });
  assert.equal(index.maybeAppend(NO_TIMESTAMP, 500), false);
  assert.equal(index.maybeAppend(100, 505), true);
  assert.equal(index.maybeAppend(100, 506), false);
  assert.equal(index.entryCount, 1);
  assert.throws(() => index.maybeAppend(99, 507), /timestamps never decrease/);
  assert.throws(() => index.maybeAppend(200, 504), /offsets never decrease/);
});

test("the last slot is kept for the entry written when the segment rolls", () => {
  const index = new TimeIndex({ baseOffset: 0, maxIndexSizeBytes: 36 });
  index.maybeAppend(10, 1);
  index.maybeAppend(20, 2);
  assert.equal(index.isFull(), true);
  assert.throws(() => index.maybeAppend(30, 3));
  assert.equal(index.maybeAppend(30, 3, { skipFullCheck: true }), true);
  assert.throws(() => index.maybeAppend(40, 4, { skipFullCheck: true }));
});

/** Strictly increasing timestamps with non-decreasing offsets. */
const arbitraryEntries = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 20 })), {
    maxLength: 60,
  })
  .map((steps) => {
    let timestamp = 1_000_000;
    let relative = 0;
    return steps.map(([timeStep, offsetStep]) => {
      timestamp += timeStep;
      relative += offsetStep;
      return { timestamp, offset: OPTIONS.baseOffset + relative };
    });
  });

function filled(entries: readonly { timestamp: number; offset: number }[]): TimeIndex {
  const index = new TimeIndex(OPTIONS);
  for (const entry of entries) assert.equal(index.maybeAppend(entry.timestamp, entry.offset), true);
  return index;
}

test("lookup agrees with a linear scan", () => {
  fc.assert(
    fc.property(
      arbitraryEntries,
      fc.integer({ min: 999_000, max: 1_070_000 }),
      (entries, target) => {
        const expected = entries.filter((entry) => entry.timestamp <= target).at(-1) ?? {
          timestamp: NO_TIMESTAMP,
          offset: OPTIONS.baseOffset,
        };
        assert.deepEqual(filled(entries).lookup(target), expected);
      },
    ),
    { seed: 21, numRuns: 300 },
  );
});

test("truncateTo keeps exactly the entries whose offset is below the target", () => {
  fc.assert(
    fc.property(arbitraryEntries, fc.integer({ min: 400, max: 1800 }), (entries, target) => {
      const index = filled(entries);
      const kept = entries.filter((entry) => entry.offset < target);
      assert.equal(index.truncateTo(target), kept.length);
      assert.deepEqual(index.encode(), filled(kept).encode());
    }),
    { seed: 22, numRuns: 300 },
  );
});

test("a zero-padded tail or a timestamp going back is loaded up to it and not sane", () => {
  const twoEntries = "0000018bcfe56800" + "0000000a" + "0000018bcfe569f4" + "00000014";
  const padded = TimeIndex.decode(bytesOf(twoEntries + "00".repeat(12 * 50)), OPTIONS);
  assert.equal(padded.index.entryCount, 2);
  assert.equal(padded.sanity.kind, "corrupt");
  const backwards = TimeIndex.decode(
    bytesOf(twoEntries + "0000018bcfe56801" + "00000015"),
    OPTIONS,
  );
  assert.equal(backwards.index.entryCount, 2);
  assert.equal(backwards.sanity.kind, "corrupt");
  const offsetBack = TimeIndex.decode(
    bytesOf(twoEntries + "0000018bcfe56a00" + "00000013"),
    OPTIONS,
  );
  assert.equal(offsetBack.sanity.kind, "corrupt");
  assert.equal(TimeIndex.decode(bytesOf(twoEntries + "00"), OPTIONS).sanity.kind, "corrupt");
  assert.equal(
    TimeIndex.decode(bytesOf("ffffffffffffffff00000000"), OPTIONS).sanity.kind,
    "corrupt",
  );
});
