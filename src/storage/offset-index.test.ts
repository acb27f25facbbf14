import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { OffsetIndex } from "./offset-index.js";

const OPTIONS = { baseOffset: 1000, maxIndexSizeBytes: 10_485_760 };

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function bytesOf(hexText: string): Uint8Array {
  return Uint8Array.from(hexText.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

test("two offset index entries are 8 big-endian bytes each, relative to the base offset", () => {
  const index = new OffsetIndex(OPTIONS);
  index.append(1005, 4200);
  index.append(1300, 70000);
  assert.equal(hex(index.encode()), "00000005" + "00001068" + "0000012c" + "00011170");
  const { index: decoded, sanity } = OffsetIndex.decode(bytesOf(hex(index.encode())), OPTIONS);
  assert.deepEqual(sanity, { kind: "sane" });
  assert.deepEqual(
    [decoded.entry(0), decoded.entry(1)],
    [
      { offset: 1005, position: 4200 },
      { offset: 1300, position: 70000 },
    ],
  );
});

test("lookup finds the largest entry at or below the target, else the segment start", () => {
  const index = new OffsetIndex(OPTIONS);
  index.append(1005, 4200);
  index.append(1300, 70000);
  assert.deepEqual(index.lookup(999), { offset: 1000, position: 0 });
  assert.deepEqual(index.lookup(1004), { offset: 1000, position: 0 });
  assert.deepEqual(index.lookup(1005), { offset: 1005, position: 4200 });
  assert.deepEqual(index.lookup(1299), { offset: 1005, position: 4200 });
  assert.deepEqual(index.lookup(5000), { offset: 1300, position: 70000 });
  assert.deepEqual(index.fetchUpperBoundOffset(4200, 1), { offset: 1300, position: 70000 });
  assert.equal(index.fetchUpperBoundOffset(70000, 1), undefined);
});

/** Strictly increasing (relative offset, position) pairs. */
const arbitraryEntries = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 9000 })), {
    maxLength: 60,
  })
  .map((steps) => {
    let relative = 0;
    let position = 0;
    return steps.map(([offsetStep, positionStep]) => {
      relative += offsetStep;
      position += positionStep;
      return { offset: OPTIONS.baseOffset + relative, position };
    });
  });

function filled(entries: readonly { offset: number; position: number }[]): OffsetIndex {
  const index = new OffsetIndex(OPTIONS);
  for (const entry of entries) index.append(entry.offset, entry.position);
  return index;
}

test("lookup agrees with a linear scan", () => {
  fc.assert(
    fc.property(arbitraryEntries, fc.integer({ min: 900, max: 4500 }), (entries, target) => {
      const expected = entries.filter((entry) => entry.offset <= target).at(-1) ?? {
        offset: OPTIONS.baseOffset,
        position: 0,
      };
      assert.deepEqual(filled(entries).lookup(target), expected);
    }),
    { seed: 11, numRuns: 300 },
  );
});

test("truncateTo keeps exactly the entries below the offset, and appends continue after it", () => {
  fc.assert(
    fc.property(arbitraryEntries, fc.integer({ min: 900, max: 4500 }), (entries, target) => {
      const index = filled(entries);
      const kept = entries.filter((entry) => entry.offset < target);
      assert.equal(index.truncateTo(target), kept.length);
      assert.deepEqual(index.encode(), filled(kept).encode());
      const last = kept.at(-1) ?? { offset: OPTIONS.baseOffset, position: 0 };
      index.append(last.offset + 1, last.position + 1);
      assert.equal(index.entryCount, kept.length + 1);
    }),
    { seed: 12, numRuns: 300 },
  );
});

test("encode and decode round-trip any valid index", () => {
  fc.assert(
    fc.property(arbitraryEntries, (entries) => {
      const { index, sanity } = OffsetIndex.decode(filled(entries).encode(), OPTIONS);
      assert.deepEqual(sanity, { kind: "sane" });
      assert.equal(index.entryCount, entries.length);
      assert.deepEqual(index.encode(), filled(entries).encode());
    }),
    { seed: 13 },
  );
});

test("a zero-padded tail (a preallocated file) loads up to the padding and is not sane", () => {
  const file = bytesOf("00000005" + "00001068" + "0000012c" + "00011170" + "00".repeat(8 * 100));
  const { index, sanity } = OffsetIndex.decode(file, OPTIONS);
  assert.equal(index.entryCount, 2);
  assert.equal(sanity.kind, "corrupt");
  assert.equal(index.lastOffset(), 1300);
});

test("non-monotonic, negative and ragged entries are detected as not sane", () => {
  const cases = {
    offsetGoesBack: "00000005" + "00001068" + "00000004" + "00011170",
    positionGoesBack: "00000005" + "00001068" + "0000012c" + "00001000",
    belowBase: "ffffffff" + "00001068",
    raggedSize: "00000005" + "00001068" + "0000",
    allZero: "00".repeat(16),
  };
  for (const [name, hexText] of Object.entries(cases)) {
    const { sanity } = OffsetIndex.decode(bytesOf(hexText), OPTIONS);
    assert.equal(sanity.kind, "corrupt", name);
  }
  assert.deepEqual(OffsetIndex.decode(new Uint8Array(0), OPTIONS).sanity, { kind: "sane" });
});

test("an index is full at segment.index.bytes, and a file beyond it is not sane", () => {
  const options = { baseOffset: 0, maxIndexSizeBytes: 20 };
  const index = new OffsetIndex(options);
  index.append(1, 100);
  assert.equal(index.isFull(), false);
  index.append(2, 200);
  assert.equal(index.isFull(), true);
  assert.throws(() => index.append(3, 300));
  const oversized = bytesOf(
    "00000001" + "00000064" + "00000002" + "000000c8" + "00000003" + "0000012c",
  );
  const { index: loaded, sanity } = OffsetIndex.decode(oversized, options);
  assert.deepEqual(sanity, { kind: "corrupt", reason: "too many entries at entry 2" });
  assert.equal(loaded.entryCount, 2);
});

test("appends that would break the ordering are refused as bugs", () => {
  const index = new OffsetIndex(OPTIONS);
  index.append(1005, 4200);
  assert.throws(() => index.append(1005, 5000), /does not increase/);
  assert.throws(() => index.append(1006, 4200), /does not increase/);
  assert.throws(() => index.append(999, 5000), /fits the segment/);
  assert.throws(() => new OffsetIndex(OPTIONS).append(1000, 0), /zero padding/);
});
