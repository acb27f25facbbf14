import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ByteReader } from "../codec/reader.js";
import { ByteWriter } from "../codec/writer.js";
import { isDecodeError } from "../codec/decode-error.js";
import { messageArbitrary, versionsOf } from "./schema-arbitrary.testkit.js";
import {
  MetadataRecordType,
  allSchemas,
  coordinatorRecordSchemas,
  dataSchema,
  decodeCoordinatorKey,
  decodeCoordinatorValue,
  decodeData,
  decodeLeaderChangeMessage,
  decodeMetadataRecord,
  decodeVersionPrefixed,
  encodeCoordinatorKey,
  encodeCoordinatorValue,
  encodeData,
  encodeLeaderChangeMessage,
  encodeMetadataRecord,
  encodeVersionPrefixed,
} from "./index.js";
import type { MetadataRecordInput } from "./index.js";

const SEED = 4242;
const RUNS = 30;

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function assertEveryPrefixFails(bytes: Uint8Array, decode: (prefix: Uint8Array) => unknown): void {
  for (let cut = 0; cut < bytes.length; cut++) {
    assert.throws(() => decode(bytes.subarray(0, cut)), isDecodeError, `cut at ${cut}`);
  }
}

test("every metadata record round-trips in every version with the KRaft frame", () => {
  for (const schema of allSchemas.filter((s) => s.kind === "metadata")) {
    for (const version of versionsOf(schema)) {
      fc.assert(
        fc.property(messageArbitrary(schema, version), (data) => {
          const record = { type: schema.apiKey, version, data } as MetadataRecordInput;
          const bytes = encodeMetadataRecord(record);
          const decoded = decodeMetadataRecord(bytes);
          assert.deepStrictEqual(decoded, record);
          assert.deepStrictEqual(encodeMetadataRecord(decoded), bytes);
          assertEveryPrefixFails(bytes, decodeMetadataRecord);
        }),
        { seed: SEED + version, numRuns: RUNS },
      );
    }
  }
});

test("a FenceBrokerRecord value is frame 1, type 7, version 0, then the flexible body", () => {
  const bytes = encodeMetadataRecord({
    type: MetadataRecordType.FenceBrokerRecord,
    version: 0,
    data: { id: 1, epoch: 2 },
  });
  assert.equal(hex(bytes), "010700" + "00000001" + "0000000000000002" + "00");
  assert.throws(() => decodeMetadataRecord(Uint8Array.of(2, 7, 0)), isDecodeError);
  assert.throws(() => decodeMetadataRecord(Uint8Array.of(1, 99, 0)), isDecodeError);
});

test("every coordinator key and value round-trips in every version", () => {
  for (const family of coordinatorRecordSchemas().values()) {
    for (const version of versionsOf(family.key)) {
      fc.assert(
        fc.property(messageArbitrary(family.key, version), (data) => {
          const bytes = encodeCoordinatorKey(family.name, data, version);
          assert.deepStrictEqual(decodeCoordinatorKey(family.log, bytes), {
            name: family.name,
            version,
            data,
          });
          assertEveryPrefixFails(bytes, (prefix) => decodeCoordinatorKey(family.log, prefix));
        }),
        { seed: SEED + version, numRuns: RUNS },
      );
    }
    for (const version of versionsOf(family.value)) {
      fc.assert(
        fc.property(messageArbitrary(family.value, version), (data) => {
          const bytes = encodeCoordinatorValue(family.name, version, data);
          assert.deepStrictEqual(decodeCoordinatorValue(family.name, bytes), { version, data });
          assertEveryPrefixFails(bytes, (prefix) => decodeCoordinatorValue(family.name, prefix));
        }),
        { seed: SEED - version, numRuns: RUNS },
      );
    }
  }
});

test("an offset commit key is int16 version 1 then group, topic and partition", () => {
  const bytes = encodeCoordinatorKey("OffsetCommit", { group: "g", topic: "t", partition: 0 });
  assert.equal(hex(bytes), "0001" + "000167" + "000174" + "00000000");
  const key = decodeCoordinatorKey("__consumer_offsets", bytes);
  assert.equal(key.name, "OffsetCommit");
  const groupKey = encodeCoordinatorKey("GroupMetadata", { group: "g" });
  assert.equal(decodeCoordinatorKey("__consumer_offsets", groupKey).name, "GroupMetadata");
  const transactionKey = encodeCoordinatorKey("TransactionLog", { transactionalId: "x" });
  assert.equal(decodeCoordinatorKey("__transaction_state", transactionKey).name, "TransactionLog");
});

test("an offset commit value v1 carries the expire timestamp that v3 lacks", () => {
  const data = { offset: 5, metadata: "", commitTimestamp: 7, expireTimestamp: 9 };
  const bytes = encodeCoordinatorValue("OffsetCommit", 1, data);
  assert.equal(
    hex(bytes),
    "0001" + "0000000000000005" + "0000" + "0000000000000007" + "0000000000000009",
  );
  // expireTimestamp is ignorable, so version 3 drops it rather than refusing.
  const v3 = decodeCoordinatorValue(
    "OffsetCommit",
    encodeCoordinatorValue("OffsetCommit", 3, data),
  );
  assert.equal(v3.data["expireTimestamp"], -1);
});

test("every data schema round-trips in every version", () => {
  for (const schema of allSchemas.filter((s) => s.kind === "data" || s.kind === "header")) {
    for (const version of versionsOf(schema)) {
      fc.assert(
        fc.property(messageArbitrary(schema, version), (data) => {
          const writer = new ByteWriter();
          encodeData(schema.name, version, data, writer);
          const bytes = writer.finish();
          const reader = new ByteReader(bytes);
          assert.deepStrictEqual(decodeData(schema.name, version, reader), data);
          assert.equal(reader.remaining, 0);
        }),
        { seed: SEED * 2 + version, numRuns: RUNS },
      );
    }
  }
});

test("a LeaderChangeMessage v0 encodes its voters as compact arrays", () => {
  const data = { version: 0, leaderId: 1, voters: [{ voterId: 1 }], grantingVoters: [] };
  const bytes = encodeLeaderChangeMessage(0, data);
  assert.equal(hex(bytes), "0000" + "00000001" + "02" + "00000001" + "00" + "01" + "00");
  assert.equal(decodeLeaderChangeMessage(0, bytes).voters[0]?.voterId, 1);
});

test("consumer protocol metadata is version-prefixed; newer versions read as the newest", () => {
  const schema = dataSchema("ConsumerProtocolSubscription");
  assert.ok(schema !== undefined);
  const bytes = encodeVersionPrefixed("ConsumerProtocolSubscription", 0, { topics: ["a"] });
  assert.equal(hex(bytes), "0000" + "00000001" + "000161" + "ffffffff");
  const newest = schema.validVersions[1];
  const latest = encodeVersionPrefixed("ConsumerProtocolSubscription", newest, { topics: ["a"] });
  const newer = Uint8Array.from([...latest, 0xaa]);
  newer[1] = newest + 1;
  const decoded = decodeVersionPrefixed("ConsumerProtocolSubscription", newer);
  assert.equal(decoded.version, newest + 1);
  assert.deepEqual(decoded.data["topics"], ["a"]);
});
