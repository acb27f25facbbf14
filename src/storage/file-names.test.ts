import { test } from "node:test";
import assert from "node:assert/strict";
import { offsetToFileName, parseSegmentFileName, segmentFileSuffix } from "./file-names.js";

test("segment file names carry the base offset as 20 digits", () => {
  assert.equal(offsetToFileName(42, ".index"), "00000000000000000042.index");
  assert.equal(offsetToFileName(0, ".log"), "00000000000000000000.log");
  assert.equal(offsetToFileName(9007199254740991, ".timeindex"), "00009007199254740991.timeindex");
});

test("segment file names parse back with their kind and stage", () => {
  assert.deepEqual(parseSegmentFileName("00000000000000000042.index"), {
    baseOffset: 42,
    kind: "index",
    stage: "live",
  });
  assert.deepEqual(parseSegmentFileName("00000000000000001000.log.deleted"), {
    baseOffset: 1000,
    kind: "log",
    stage: "deleted",
  });
  assert.equal(parseSegmentFileName("00000000000000000007.snapshot")?.kind, "snapshot");
  assert.equal(parseSegmentFileName("00000000000000000007.timeindex.swap")?.stage, "swap");
  assert.equal(parseSegmentFileName("00000000000000000007.log.cleaned")?.stage, "cleaned");
});

test("other names are not segment files", () => {
  for (const name of [
    "leader-epoch-checkpoint",
    "partition.metadata",
    "42.index",
    "00000000000000000042.index.tmp",
    "00000000000000000042.idx",
    "99999999999999999999.log",
  ]) {
    assert.equal(parseSegmentFileName(name), undefined, name);
  }
});

test("a suffix and its parse are inverse", () => {
  for (const kind of ["log", "index", "timeindex", "snapshot", "txnindex"] as const) {
    for (const stage of ["live", "deleted", "cleaned", "swap"] as const) {
      const parsedName = parseSegmentFileName(offsetToFileName(5, segmentFileSuffix(kind, stage)));
      assert.deepEqual(parsedName, { baseOffset: 5, kind, stage });
    }
  }
});
