import assert from "node:assert/strict";
import { test } from "node:test";
import { MetadataLoader } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { encodeMetadataRecord, MetadataRecordType } from "../../protocol/index.js";
import { activationRecords, stepAfter } from "./activation.js";

/** The image a loader builds from `records`, committed as one batch. */
function committedImage(records: ReturnType<typeof activationRecords>): MetadataImage {
  const loader = new MetadataLoader({ nowMs: 0, maxBytesBetweenSnapshots: 1 << 30 });
  const encoded = records.map((record) => encodeMetadataRecord(record));
  loader.handleCommit({
    baseOffset: 0,
    lastOffset: encoded.length - 1,
    epoch: 1,
    records: encoded,
  });
  return loader.image;
}

test("the claim of an epoch is one NoOpRecord", () => {
  const records = activationRecords("claim", {});
  assert.deepEqual(
    records.map((record) => record.type),
    [MetadataRecordType.NoOpRecord],
  );
});

test("a claim committed on an empty log is followed by the bootstrap records", () => {
  const empty = committedImage(activationRecords("claim", {}));
  assert.equal(stepAfter("claim", empty), "bootstrap");
  const bootstrap = activationRecords("bootstrap", {});
  assert.ok(bootstrap.some((record) => record.type === MetadataRecordType.FeatureLevelRecord));
});

test("a claim committed on a log with a metadata.version serves at once", () => {
  const bootstrapped = committedImage(activationRecords("bootstrap", {}));
  assert.equal(stepAfter("claim", bootstrapped), "serve");
});

test("the controller serves once its bootstrap records committed", () => {
  const bootstrapped = committedImage(activationRecords("bootstrap", {}));
  assert.equal(stepAfter("bootstrap", bootstrapped), "serve");
});
