import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeMetadataRecord, encodeMetadataRecord } from "../protocol/index.js";
import type { MetadataRecord } from "../protocol/index.js";
import { EMPTY_IMAGE } from "./images.js";
import type { MetadataImage } from "./images.js";
import { imageToPlain } from "./image-plain.js";
import { MetadataDelta } from "./metadata-delta.js";
import { MetadataLoader } from "./metadata-loader.js";
import { recordsOf, stepsArbitrary } from "./random-log.test-support.js";
import { imageFromRecords, imageToRecords } from "./snapshot-records.js";

const SEED = 20_240_301;
const RUNS = 150;
const EPOCH = 3;

/** Replays `records` as offsets `from`.. onto `base` in batches cut at `cuts`. */
function replayBatches(
  base: MetadataImage,
  records: MetadataRecord[],
  cuts: number[],
  from: number,
): MetadataImage {
  let image = base;
  let start = 0;
  const ends = [...new Set(cuts.map((cut) => cut % (records.length + 1)))].sort((a, b) => a - b);
  for (const end of [...ends, records.length]) {
    if (end <= start) continue;
    const delta = new MetadataDelta(image);
    delta.replayAll(records.slice(start, end), from + start);
    image = delta.apply({ lastContainedOffset: from + end - 1, lastContainedEpoch: EPOCH });
    start = end;
  }
  return image;
}

const wholeLog = (records: MetadataRecord[]) => replayBatches(EMPTY_IMAGE, records, [], 0);

test("replaying a log in any batching gives the image of replaying it in one delta", () => {
  fc.assert(
    fc.property(stepsArbitrary(60), fc.array(fc.nat(400), { maxLength: 8 }), (steps, cuts) => {
      const records = recordsOf(steps);
      assert.deepEqual(
        imageToPlain(replayBatches(EMPTY_IMAGE, records, cuts, 0)),
        imageToPlain(wholeLog(records)),
      );
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

test("image -> snapshot records -> image is the identity", () => {
  fc.assert(
    fc.property(stepsArbitrary(60), (steps) => {
      const image = wholeLog(recordsOf(steps));
      const rebuilt = imageFromRecords(imageToRecords(image), image.provenance);
      assert.deepEqual(imageToPlain(rebuilt), imageToPlain(image));
      // The same holds for the records' bytes: a snapshot written to disk and read back.
      const decoded = imageToRecords(image).map((record) =>
        decodeMetadataRecord(encodeMetadataRecord(record)),
      );
      assert.deepEqual(
        imageToPlain(imageFromRecords(decoded, image.provenance)),
        imageToPlain(image),
      );
    }),
    { seed: SEED + 1, numRuns: RUNS },
  );
});

test("a snapshot plus the rest of the log gives the image of the full log", () => {
  fc.assert(
    fc.property(stepsArbitrary(60), fc.nat(400), (steps, cut) => {
      const records = recordsOf(steps);
      const at = cut % (records.length + 1);
      const prefix = wholeLog(records.slice(0, at));
      const fromSnapshot = imageFromRecords(imageToRecords(prefix), prefix.provenance);
      const image = replayBatches(fromSnapshot, records.slice(at), [], at);
      assert.deepEqual(imageToPlain(image), imageToPlain(wholeLog(records)));
    }),
    { seed: SEED + 2, numRuns: RUNS },
  );
});

test("a snapshot loaded over a different image leaves exactly the snapshot's image", () => {
  fc.assert(
    fc.property(stepsArbitrary(40), stepsArbitrary(40), (before, snapshotSteps) => {
      const loader = new MetadataLoader({ nowMs: 0 });
      const earlier = recordsOf(before).map((record) => encodeMetadataRecord(record));
      if (earlier.length > 0) {
        loader.handleCommit({
          baseOffset: 0,
          lastOffset: earlier.length - 1,
          epoch: 1,
          records: earlier,
        });
      }
      const target = wholeLog(recordsOf(snapshotSteps));
      const endOffset = earlier.length + 10;
      const records = imageToRecords(target).map((record) => encodeMetadataRecord(record));
      loader.handleLoadSnapshot({ snapshotId: { endOffset, epoch: EPOCH }, records });
      const expected = {
        ...target,
        provenance: { lastContainedOffset: endOffset - 1, lastContainedEpoch: EPOCH },
      };
      assert.deepEqual(imageToPlain(loader.image), imageToPlain(expected));
    }),
    { seed: SEED + 3, numRuns: RUNS },
  );
});
