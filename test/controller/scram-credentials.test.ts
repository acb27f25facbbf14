/**
 * AlterUserScramCredentials and DescribeUserScramCredentials decided as Kafka's
 * ScramControlManager and ScramImage decide them: the error code of each refusal, one change per
 * user per request, the keys derived from the client's salted password, and the records that
 * the metadata image replays.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, createHmac, pbkdf2Sync } from "node:crypto";
import { NodeCrypto } from "../../src/adapters/index.js";
import { ErrorCode } from "../../src/common/index.js";
import {
  alterUserScramCredentials,
  describeUserScramCredentials,
} from "../../src/controller/index.js";
import { EMPTY_IMAGE, MetadataDelta, type MetadataImage } from "../../src/metadata/index.js";
import {
  MetadataRecordType,
  type AlterUserScramCredentialsRequest,
  type MetadataRecord,
  type UserScramCredentialRecord,
} from "../../src/protocol/index.js";

const crypto = new NodeCrypto();
const SHA_256 = 1;
const SHA_512 = 2;

function build(records: readonly MetadataRecord[], base: MetadataImage): MetadataImage {
  const delta = new MetadataDelta(base);
  const offset = base.provenance.lastContainedOffset + 1;
  delta.replayAll([...records], offset);
  return delta.apply({ lastContainedOffset: offset + records.length, lastContainedEpoch: 1 });
}

function imageAt(metadataVersion: number): MetadataImage {
  const level: MetadataRecord = {
    type: MetadataRecordType.FeatureLevelRecord,
    version: 0,
    data: { name: "metadata.version", featureLevel: metadataVersion },
  };
  return build([level], EMPTY_IMAGE);
}

const salt = new Uint8Array(20).fill(9);
const salted = (mechanism: number, password: string) =>
  new Uint8Array(
    pbkdf2Sync(password, salt, 4096, mechanism === SHA_256 ? 32 : 64, hashName(mechanism)),
  );
const hashName = (mechanism: number) => (mechanism === SHA_256 ? "sha256" : "sha512");

function upsertion(name: string, mechanism = SHA_512, iterations = 4096) {
  return { name, mechanism, iterations, salt, saltedPassword: salted(mechanism, "secret") };
}

function alter(image: MetadataImage, request: Partial<AlterUserScramCredentialsRequest>) {
  return alterUserScramCredentials(image, { deletions: [], upsertions: [], ...request }, crypto);
}

const codes = (outcome: ReturnType<typeof alter>) =>
  Object.fromEntries(outcome.response.results.map((result) => [result.user, result.errorCode]));

test("an upsertion stores Kafka's StoredKey and ServerKey of the salted password", () => {
  const outcome = alter(imageAt(22), { upsertions: [upsertion("alice")] });
  assert.deepEqual(codes(outcome), { alice: 0 });
  assert.equal(outcome.records.length, 1);
  const record = outcome.records[0];
  assert.equal(record?.type, MetadataRecordType.UserScramCredentialRecord);
  const data = record?.data as UserScramCredentialRecord;
  const saltedPassword = salted(SHA_512, "secret");
  const clientKey = createHmac("sha512", saltedPassword).update("Client Key").digest();
  assert.deepEqual(Buffer.from(data.storedKey), createHash("sha512").update(clientKey).digest());
  assert.deepEqual(
    Buffer.from(data.serverKey),
    createHmac("sha512", saltedPassword).update("Server Key").digest(),
  );
  assert.deepEqual({ name: data.name, mechanism: data.mechanism }, { name: "alice", mechanism: 2 });
  assert.deepEqual([data.iterations, Buffer.from(data.salt)], [4096, Buffer.from(salt)]);
});

test("each refusal gets Kafka's code and message, and writes nothing", () => {
  const outcome = alter(imageAt(22), {
    deletions: [{ name: "ghost", mechanism: SHA_256 }],
    upsertions: [
      upsertion(""),
      upsertion("few", SHA_256, 4095),
      upsertion("many", SHA_512, 16385),
      { ...upsertion("odd"), mechanism: 3 },
      { ...upsertion("empty"), saltedPassword: new Uint8Array(0) },
      upsertion("edge", SHA_256, 16384),
    ],
  });
  assert.deepEqual(codes(outcome), {
    edge: 0,
    ghost: ErrorCode.RESOURCE_NOT_FOUND,
    "": ErrorCode.UNACCEPTABLE_CREDENTIAL,
    few: ErrorCode.UNACCEPTABLE_CREDENTIAL,
    many: ErrorCode.UNACCEPTABLE_CREDENTIAL,
    odd: ErrorCode.UNSUPPORTED_SASL_MECHANISM,
    empty: ErrorCode.UNKNOWN_SERVER_ERROR,
  });
  const messages = Object.fromEntries(
    outcome.response.results.map((result) => [result.user, result.errorMessage]),
  );
  assert.equal(messages["few"], "Too few iterations");
  assert.equal(messages["many"], "Too many iterations");
  assert.equal(messages[""], "Username must not be empty");
  assert.equal(messages["ghost"], "Attempt to delete a user credential that does not exist");
  assert.equal(messages["empty"], null);
  assert.deepEqual(
    outcome.records.map((record) => (record.data as { name: string }).name),
    ["edge"],
  );
  // Accepted changes are answered first.
  assert.equal(outcome.response.results[0]?.user, "edge");
});

test("a user altered twice in one request is DUPLICATE_RESOURCE, whatever the mechanisms", () => {
  const image = build(alter(imageAt(22), { upsertions: [upsertion("bob")] }).records, imageAt(22));
  const outcome = alter(image, {
    deletions: [
      { name: "bob", mechanism: SHA_512 },
      { name: "dave", mechanism: SHA_512 },
    ],
    upsertions: [upsertion("bob", SHA_256), upsertion("carol"), upsertion("carol", SHA_256)],
  });
  assert.deepEqual(codes(outcome), {
    bob: ErrorCode.DUPLICATE_RESOURCE,
    carol: ErrorCode.DUPLICATE_RESOURCE,
    dave: ErrorCode.RESOURCE_NOT_FOUND,
  });
  assert.deepEqual(outcome.records, []);
});

test("a deletion removes the credential from the image it is replayed into", () => {
  const start = imageAt(22);
  const created = build(alter(start, { upsertions: [upsertion("erin", SHA_256)] }).records, start);
  const outcome = alter(created, { deletions: [{ name: "erin", mechanism: SHA_256 }] });
  assert.deepEqual(codes(outcome), { erin: 0 });
  assert.equal(outcome.records[0]?.type, MetadataRecordType.RemoveUserScramCredentialRecord);
  const deleted = build(outcome.records, created);
  assert.equal(deleted.security.scramCredentials.size, 0);
});

test("below metadata.version 3.5-IV2 every change is UNSUPPORTED_VERSION", () => {
  const outcome = alter(imageAt(10), {
    deletions: [{ name: "a", mechanism: SHA_256 }],
    upsertions: [upsertion("b")],
  });
  assert.deepEqual(codes(outcome), {
    a: ErrorCode.UNSUPPORTED_VERSION,
    b: ErrorCode.UNSUPPORTED_VERSION,
  });
  assert.deepEqual(outcome.records, []);
});

test("describe lists every user's mechanisms, or each user asked with Kafka's refusals", () => {
  const start = imageAt(22);
  const changes = alter(start, {
    upsertions: [upsertion("zoe", SHA_512, 8192), upsertion("amy", SHA_256)],
  });
  const both = alter(build(changes.records, start), { upsertions: [upsertion("amy", SHA_512)] });
  const image = build(both.records, build(changes.records, start));
  const all = describeUserScramCredentials(image, { users: null });
  assert.deepEqual(
    all.results.map(({ user, errorCode, credentialInfos }) => ({
      user,
      errorCode,
      credentialInfos,
    })),
    [
      {
        user: "amy",
        errorCode: 0,
        credentialInfos: [
          { mechanism: SHA_256, iterations: 4096 },
          { mechanism: SHA_512, iterations: 4096 },
        ],
      },
      { user: "zoe", errorCode: 0, credentialInfos: [{ mechanism: SHA_512, iterations: 8192 }] },
    ],
  );
  assert.deepEqual(describeUserScramCredentials(image, { users: [] }).results, all.results);
  const named = describeUserScramCredentials(image, {
    users: [{ name: "zoe" }, { name: "nobody" }, { name: "amy" }, { name: "amy" }],
  });
  assert.deepEqual(
    named.results.map(({ user, errorCode, errorMessage }) => [user, errorCode, errorMessage]),
    [
      ["zoe", 0, null],
      [
        "nobody",
        ErrorCode.RESOURCE_NOT_FOUND,
        "Attempt to describe a user credential that does not exist: nobody",
      ],
      [
        "amy",
        ErrorCode.DUPLICATE_RESOURCE,
        "Cannot describe SCRAM credentials for the same user twice in a single request: amy",
      ],
    ],
  );
});
