import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_IMAGE } from "../../metadata/index.js";
import { replay } from "../cluster/controls.test-support.js";
import { bootstrapRecords } from "./bootstrap.js";
import { METADATA_VERSION_LATEST, registerBrokerRecordVersion } from "./metadata-version.js";
import { unsupportedFeatureMessage } from "./supported-features.js";

test("a new cluster starts with metadata.version, then other features by name", () => {
  const records = bootstrapRecords({
    features: [
      { name: "z.version", level: 1 },
      { name: "a.version", level: 0 },
    ],
  });
  const image = replay(EMPTY_IMAGE, records);
  assert.equal(image.features.metadataVersion, METADATA_VERSION_LATEST);
  assert.equal(image.features.finalizedLevels.get("z.version"), 1);
  assert.equal(image.features.finalizedLevels.has("a.version"), false);
  assert.equal(records.length, 2);
});

test("bootstrapping at a level the controller cannot run is a broken invariant", () => {
  assert.throws(() => bootstrapRecords({ metadataVersion: 6 }));
  assert.throws(() => bootstrapRecords({ metadataVersion: METADATA_VERSION_LATEST + 1 }));
});

test("record versions follow the metadata.version level", () => {
  assert.equal(registerBrokerRecordVersion(7), 1);
  assert.equal(registerBrokerRecordVersion(8), 2);
  assert.equal(registerBrokerRecordVersion(22), 3);
});

test("a node must support every finalized level; an absent feature supports only level 0", () => {
  const image = replay(
    EMPTY_IMAGE,
    bootstrapRecords({ features: [{ name: "group.version", level: 1 }] }),
  );
  const mv = { name: "metadata.version", minSupportedVersion: 7, maxSupportedVersion: 22 };
  const group = { name: "group.version", minSupportedVersion: 0, maxSupportedVersion: 1 };
  assert.equal(unsupportedFeatureMessage(image.features, [mv, group]), undefined);
  assert.match(unsupportedFeatureMessage(image.features, [mv]) ?? "", /group.version/);
});
