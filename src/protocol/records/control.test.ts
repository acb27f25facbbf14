import { test } from "node:test";
import assert from "node:assert/strict";
import {
  decodeControlRecord,
  decodeControlRecordKey,
  decodeTransactionMarker,
  encodeControlRecordKey,
  encodeTransactionMarker,
  encodeTransactionMarkerBatch,
  type ControlRecordType,
} from "./control.js";
import { decodeKraftControlValue } from "./control-kraft.js";
import { decodeRecords } from "./decode.js";
import { encodeLeaderChangeMessage } from "../schema/index.js";

const bytes = (...values: number[]) => new Uint8Array(values);

test("control record keys are int16 version 0 and int16 type, for every type", () => {
  const types: ControlRecordType[] = [
    "abort",
    "commit",
    "leaderChange",
    "snapshotHeader",
    "snapshotFooter",
    "kraftVersion",
    "kraftVoters",
  ];
  types.forEach((type, id) => {
    assert.deepEqual(encodeControlRecordKey(type), bytes(0, 0, 0, id));
    const key = decodeControlRecordKey(encodeControlRecordKey(type));
    assert.ok(key.ok);
    assert.equal(key.typeId, id);
  });
});

test("a transaction marker value is int16 version 0 and int32 coordinatorEpoch", () => {
  assert.deepEqual(encodeTransactionMarker(258), bytes(0, 0, 0, 0, 1, 2));
  const marker = decodeTransactionMarker(bytes(0, 0, 0, 0, 1, 2));
  assert.ok(marker.ok);
  assert.equal(marker.coordinatorEpoch, 258);
});

test("short or negative-version keys and markers are refused", () => {
  assert.ok(!decodeControlRecordKey(bytes(0, 0, 1)).ok);
  assert.ok(!decodeControlRecordKey(null).ok);
  assert.ok(!decodeControlRecordKey(bytes(0xff, 0xff, 0, 1)).ok);
  assert.ok(!decodeTransactionMarker(bytes(0, 0, 0, 0, 1)).ok);
  assert.ok(!decodeTransactionMarker(null).ok);
});

test("KRaft control records keep their schema value as bytes; unknown types are reported", () => {
  const value = bytes(0, 0, 0, 0, 0, 1);
  const leaderChange = decodeControlRecord({ key: bytes(0, 0, 0, 2), value });
  assert.ok(leaderChange.ok);
  assert.deepEqual(leaderChange.control, { type: "leaderChange", keyVersion: 0, value });
  const unknown = decodeControlRecord({ key: bytes(0, 1, 0, 42), value: null });
  assert.ok(unknown.ok);
  assert.deepEqual(unknown.control, { type: "unknown", keyVersion: 1, typeId: 42, value: null });
  assert.ok(!decodeControlRecord({ key: bytes(0, 0, 0, 3), value: null }).ok);
});

test("a transaction marker batch is a transactional control batch with one marker", () => {
  const batch = encodeTransactionMarkerBatch({
    baseOffset: 40,
    partitionLeaderEpoch: 2,
    producerId: 77,
    producerEpoch: 3,
    coordinatorEpoch: 11,
    type: "abort",
    timestamp: 1234,
  });
  const decoded = decodeRecords(batch, { maxDecompressedBytes: 1024 });
  assert.ok(decoded.ok);
  const { header, records } = decoded;
  assert.ok(header.isControl && header.isTransactional);
  assert.equal(header.producerId, 77);
  assert.equal(header.producerEpoch, 3);
  assert.equal(header.baseSequence, -1);
  assert.equal(records.length, 1);
  const control = decodeControlRecord(records[0]!);
  assert.ok(control.ok);
  const expected = { type: "abort", keyVersion: 0, markerVersion: 0, coordinatorEpoch: 11 };
  assert.deepEqual(control.control, expected);
});

test("a LeaderChange control value decodes through the schema codec at its own version", () => {
  const value = encodeLeaderChangeMessage(0, {
    version: 0,
    leaderId: 3,
    voters: [{ voterId: 1 }, { voterId: 3 }],
    grantingVoters: [{ voterId: 3 }],
  });
  const control = decodeControlRecord({ key: encodeControlRecordKey("leaderChange"), value });
  assert.ok(control.ok && control.control.type === "leaderChange");
  const decoded = decodeKraftControlValue(control.control);
  assert.ok(decoded.ok && decoded.decoded.type === "leaderChange");
  assert.equal(decoded.decoded.data.leaderId, 3);
  assert.deepEqual(
    decoded.decoded.data.voters.map((voter) => voter.voterId),
    [1, 3],
  );
  const broken = decodeKraftControlValue({ type: "leaderChange", value: value.subarray(0, 5) });
  assert.ok(!broken.ok);
});
