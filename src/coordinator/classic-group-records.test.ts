import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../common/index.js";
import { decodeCoordinatorKey, isDecodeError } from "../protocol/index.js";
import { groupMetadataErrorOf } from "./offset-writes.driver.js";
import {
  decodeGroupMetadataValue,
  encodeGroupMetadataKey,
  encodeGroupMetadataValue,
  groupMetadataRecord,
  type PersistedClassicGroup,
} from "./classic-group-records.js";

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "hex"));
}

const GROUP: PersistedClassicGroup = {
  protocolType: "consumer",
  generationId: 5,
  protocolName: "range",
  leaderId: "m1",
  currentStateTimestampMs: 1000,
  members: [
    {
      memberId: "m1",
      groupInstanceId: null,
      clientId: "c",
      clientHost: "/h",
      rebalanceTimeoutMs: 300_000,
      sessionTimeoutMs: 45_000,
      subscription: Uint8Array.of(1, 2),
      assignment: Uint8Array.of(3),
    },
  ],
};

test("a GroupMetadata key is key version 2 then the group id", () => {
  const key = encodeGroupMetadataKey("g");
  assert.equal(hex(key), "0002" + "000167");
  assert.deepEqual(decodeCoordinatorKey("__consumer_offsets", key), {
    name: "GroupMetadata",
    version: 2,
    data: { group: "g" },
  });
});

test("a GroupMetadata value is written at version 3 with the bytes of Kafka's schema", () => {
  const member =
    "0002" + "6d31" + "ffff" + "0001" + "63" + "0002" + "2f68" + "000493e0" + "0000afc8";
  const expected =
    "0003" +
    ("0008" + Buffer.from("consumer").toString("hex")) +
    "00000005" +
    ("0005" + Buffer.from("range").toString("hex")) +
    ("0002" + "6d31") +
    "00000000000003e8" +
    "00000001" +
    member +
    ("00000002" + "0102") +
    ("00000001" + "03");
  assert.equal(hex(encodeGroupMetadataValue(GROUP)), expected);
  assert.deepEqual(decodeGroupMetadataValue(fromHex(expected)), GROUP);
});

test("a GroupMetadata value round-trips at every version Kafka reads", () => {
  const staticGroup = {
    ...GROUP,
    members: GROUP.members.map((member) => ({ ...member, groupInstanceId: "instance-1" })),
  };
  for (const version of [0, 1, 2, 3, 4]) {
    const decoded = decodeGroupMetadataValue(encodeGroupMetadataValue(staticGroup, version));
    const member = decoded.members[0];
    assert.equal(decoded.generationId, 5, `v${version}`);
    assert.equal(decoded.protocolName, "range");
    assert.equal(decoded.leaderId, "m1");
    assert.deepEqual(member?.subscription, Uint8Array.of(1, 2));
    assert.deepEqual(member?.assignment, Uint8Array.of(3));
    // Fields a version lacks read as their defaults.
    assert.equal(decoded.currentStateTimestampMs, version >= 2 ? 1000 : -1);
    assert.equal(member?.groupInstanceId, version >= 3 ? "instance-1" : null);
    // Version 0 has no rebalance timeout: the session timeout stands for it, as in Kafka.
    assert.equal(member?.rebalanceTimeoutMs, version >= 1 ? 300_000 : 45_000);
  }
});

test("a version 0 value of an empty group and a flexible version 4 value decode", () => {
  // protocolType "", generation 2, protocol null, leader null, no members.
  const empty = decodeGroupMetadataValue(
    fromHex("0000" + "0000" + "00000002" + "ffff" + "ffff" + "00000000"),
  );
  assert.deepEqual(empty, {
    protocolType: "",
    generationId: 2,
    protocolName: null,
    leaderId: null,
    currentStateTimestampMs: -1,
    members: [],
  });
  // v4: compact strings (length + 1), compact arrays, tagged fields.
  const v4 = "0004" + "01" + "00000002" + "00" + "00" + "ffffffffffffffff" + "01" + "00";
  assert.deepEqual(decodeGroupMetadataValue(fromHex(v4)), empty);
  assert.equal(hex(encodeGroupMetadataValue(empty, 4)), v4);
});

test("a truncated value is a decode error, and a deleted group's record is a tombstone", () => {
  const bytes = encodeGroupMetadataValue(GROUP);
  assert.throws(() => decodeGroupMetadataValue(bytes.subarray(0, bytes.length - 1)), isDecodeError);
  const tombstone = groupMetadataRecord("g", null, 7);
  assert.equal(tombstone.value, null);
  assert.equal(tombstone.timestamp, 7);
  assert.equal(hex(tombstone.key ?? new Uint8Array(0)), "0002000167");
});

test("a failed write of a group's record answers as Kafka's group requests do", () => {
  const cases: [number, number][] = [
    [ErrorCode.NOT_ENOUGH_REPLICAS, ErrorCode.COORDINATOR_NOT_AVAILABLE],
    [ErrorCode.REQUEST_TIMED_OUT, ErrorCode.COORDINATOR_NOT_AVAILABLE],
    [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.COORDINATOR_NOT_AVAILABLE],
    [ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.NOT_COORDINATOR],
    [ErrorCode.KAFKA_STORAGE_ERROR, ErrorCode.NOT_COORDINATOR],
    [ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.UNKNOWN_SERVER_ERROR],
    [ErrorCode.RECORD_LIST_TOO_LARGE, ErrorCode.UNKNOWN_SERVER_ERROR],
    [ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND, ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND],
    [ErrorCode.NONE, ErrorCode.NONE],
  ];
  for (const [appendError, answered] of cases) {
    assert.equal(groupMetadataErrorOf(appendError), answered, `append error ${appendError}`);
  }
});
