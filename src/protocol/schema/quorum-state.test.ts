import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { isDecodeError } from "../codec/decode-error.js";
import { messageArbitrary, versionsOf } from "./schema-arbitrary.testkit.js";
import { QuorumStateDataSchema, quorumStateFromJson, quorumStateToJson } from "./index.js";

test("quorum state v0 is written as Kafka writes it, data_version last", () => {
  const data = {
    clusterId: "",
    leaderId: 1,
    leaderEpoch: 2,
    votedId: -1,
    appliedOffset: 0,
    currentVoters: null,
  };
  const text = quorumStateToJson(data, 0);
  assert.equal(
    text,
    '{"clusterId":"","leaderId":1,"leaderEpoch":2,"votedId":-1,"appliedOffset":0,' +
      '"currentVoters":null,"data_version":0}',
  );
  const read = quorumStateFromJson(text);
  assert.equal(read.version, 0);
  assert.equal(read.data.leaderEpoch, 2);
});

test("quorum state v1 writes the voted directory id as a URL-safe base64 uuid", () => {
  const votedDirectoryId = "fb".repeat(16);
  const text = quorumStateToJson({ leaderId: -1, leaderEpoch: 3, votedId: 2, votedDirectoryId }, 1);
  assert.equal(
    text,
    '{"leaderId":-1,"leaderEpoch":3,"votedId":2,' +
      '"votedDirectoryId":"-_v7-_v7-_v7-_v7-_v7-w","data_version":1}',
  );
  assert.equal(quorumStateFromJson(text).data.votedDirectoryId, votedDirectoryId);
});

test("quorum state round-trips through JSON in every version", () => {
  for (const version of versionsOf(QuorumStateDataSchema)) {
    fc.assert(
      // JSON has no place for unknown tagged fields; Kafka's converter drops them as well.
      fc.property(
        messageArbitrary(QuorumStateDataSchema, version, { hasUnknownTaggedFields: false }),
        (data) => {
          const text = quorumStateToJson(data, version);
          assert.deepStrictEqual(quorumStateFromJson(text), { version, data });
        },
      ),
      { seed: 77 + version, numRuns: 50 },
    );
  }
});

const ZEROS = "AAAAAAAAAAAAAAAAAAAAAA";

test("invalid quorum-state files are DecodeErrors", () => {
  const invalid = [
    "not json",
    "[]",
    '{"leaderId":1}',
    `{"leaderId":1,"leaderEpoch":2,"votedId":-1,"votedDirectoryId":"${ZEROS}","data_version":7}`,
    '{"leaderEpoch":2,"votedId":-1,"votedDirectoryId":"AAAAAAAAAAAAAAAAAAAAAA","data_version":1}',
    `{"leaderId":"x","leaderEpoch":2,"votedId":-1,"votedDirectoryId":"${ZEROS}","data_version":1}`,
    '{"leaderId":1,"leaderEpoch":2,"votedId":-1,"votedDirectoryId":"short","data_version":1}',
    '{"leaderId":1,"leaderEpoch":2,"votedId":-1,"votedDirectoryId":null,"data_version":1}',
  ];
  for (const text of invalid) assert.throws(() => quorumStateFromJson(text), isDecodeError, text);
});
