import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { ByteReader } from "../../src/protocol/codec/reader.js";
import { decodeRequest, encodeRequest } from "../../src/protocol/request.js";
import type { RequestHeader } from "../../src/protocol/headers.js";
import { decodeRecords } from "../../src/protocol/records/index.js";

/**
 * Golden bytes: request frames captured from kcat (librdkafka 2.0.2) and kafkajs 2.2.4 by
 * capture.ts. The decoder must read them field for field, and re-encoding what it read must give
 * the same bytes back. Reads fixtures only, so it needs no client at test time.
 */

const FIXTURES = new URL("../../../test/golden/fixtures/", import.meta.url);

interface Fixture {
  readonly name: string;
  readonly client: "kcat" | "kafkajs";
  readonly api: string;
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly bytes: Uint8Array;
}

function loadFixtures(): Fixture[] {
  const names = readdirSync(FIXTURES).filter((file) => file.endsWith(".hex"));
  return names.sort().map((file) => {
    const name = file.slice(0, -".hex".length);
    const hex = readFileSync(new URL(file, FIXTURES), "utf8").replace(/\s+/g, "");
    const sidecar = JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), "utf8"));
    return { name, ...sidecar, bytes: Uint8Array.from(Buffer.from(hex, "hex")) } as Fixture;
  });
}

const fixtures = loadFixtures();
const CLIENT_IDS = { kcat: "rdkafka", kafkajs: "kafkajs" } as const;

function fixture(client: Fixture["client"], api: string): Fixture {
  const found = fixtures.find((candidate) => candidate.client === client && candidate.api === api);
  assert.ok(found, `no ${client} ${api} fixture`);
  return found;
}

function decoded(item: Fixture): { header: RequestHeader; body: Record<string, unknown> } {
  const result = decodeRequest(item.bytes);
  assert.equal(result.kind, "request", `${item.name}: ${JSON.stringify(result)}`);
  return result;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(chunks));
}

test("there are fixtures for ApiVersions, Metadata and Produce from both clients", () => {
  for (const client of ["kcat", "kafkajs"] as const) {
    for (const api of ["ApiVersions", "Metadata", "Produce"]) fixture(client, api);
  }
});

test("every fixture's header decodes to the client, API and version recorded with it", () => {
  for (const item of fixtures) {
    const { header } = decoded(item);
    assert.equal(header.apiKey, item.apiKey, item.name);
    assert.equal(header.apiVersion, item.apiVersion, item.name);
    assert.equal(header.clientId, CLIENT_IDS[item.client], item.name);
    assert.ok(header.correlationId >= 0, item.name);
    assert.deepEqual(header.taggedFields, [], item.name);
  }
});

test("re-encoding every decoded fixture gives back the captured bytes", () => {
  for (const item of fixtures) {
    const { header, body } = decoded(item);
    const frame = concat(encodeRequest(header, body));
    assert.equal(new DataView(frame.buffer).getInt32(0), item.bytes.length, item.name);
    assert.deepEqual(frame.subarray(4), item.bytes, item.name);
  }
});

test("kcat's ApiVersions v3 names librdkafka in a flexible request", () => {
  const item = fixture("kcat", "ApiVersions");
  assert.equal(item.apiVersion, 3);
  const result = decodeRequest(item.bytes);
  assert.equal(result.kind, "request");
  assert.equal(result.headerVersion, 2, "flexible versions use request header v2");
  assert.equal(result.body["clientSoftwareName"], "librdkafka");
  assert.equal(result.body["clientSoftwareVersion"], "2.0.2");
});

test("kafkajs's ApiVersions is a pre-flexible version with a v1 header", () => {
  const item = fixture("kafkajs", "ApiVersions");
  const result = decodeRequest(item.bytes);
  assert.equal(result.kind, "request");
  assert.ok(item.apiVersion < 3);
  assert.equal(result.headerVersion, 1);
});

test("Metadata requests ask for the golden topic", () => {
  for (const client of ["kcat", "kafkajs"] as const) {
    const { body } = decoded(fixture(client, "Metadata"));
    const topics = body["topics"] as { name: string }[];
    assert.deepEqual(
      topics.map((topic) => topic.name),
      ["golden"],
      client,
    );
    assert.equal(typeof body["allowAutoTopicCreation"], "boolean", client);
  }
  assert.equal(decoded(fixture("kcat", "Metadata")).body["allowAutoTopicCreation"], true);
  assert.equal(decoded(fixture("kafkajs", "Metadata")).body["allowAutoTopicCreation"], false);
});

interface ProduceBody {
  transactionalId: string | null;
  acks: number;
  timeoutMs: number;
  topicData: { name: string; partitionData: { index: number; records: Uint8Array | null }[] }[];
}

test("Produce requests carry acks -1, the timeout, the topic and partition 0", () => {
  for (const client of ["kcat", "kafkajs"] as const) {
    const body = decoded(fixture(client, "Produce")).body as unknown as ProduceBody;
    assert.equal(body.transactionalId, null, client);
    assert.equal(body.acks, -1, client);
    assert.equal(body.timeoutMs, 30000, client);
    assert.equal(body.topicData.length, 1, client);
    const topic = body.topicData[0];
    assert.equal(topic?.name, "golden", client);
    assert.equal(topic?.partitionData.length, 1, client);
    assert.equal(topic?.partitionData[0]?.index, 0, client);
  }
});

/** The keys and values of an uncompressed record batch v2, read by hand from its bytes. */
function readBatch(records: Uint8Array): { keys: string[]; values: string[]; count: number } {
  const reader = new ByteReader(records);
  assert.equal(reader.int64(), 0, "base offset");
  assert.equal(reader.int32(), records.length - 12, "batch length covers the rest");
  reader.int32(); // partition leader epoch
  assert.equal(reader.int8(), 2, "magic byte 2 at byte 16");
  reader.uint32(); // crc
  assert.equal(reader.int16() & 0x07, 0, "no compression");
  reader.int32(); // last offset delta
  reader.int64(); // base timestamp
  reader.int64(); // max timestamp
  reader.raw(8 + 2 + 4); // producer id, producer epoch, base sequence
  const count = reader.int32();
  const text = new TextDecoder();
  const keys: string[] = [];
  const values: string[] = [];
  for (let index = 0; index < count; index++) {
    const end = reader.varint() + reader.position;
    reader.int8(); // attributes
    reader.varlong(); // timestamp delta
    assert.equal(reader.varint(), index, "offset delta");
    keys.push(text.decode(reader.raw(reader.varint())));
    values.push(text.decode(reader.raw(reader.varint())));
    assert.equal(reader.varint(), 0, "no headers");
    assert.equal(reader.position, end, "record length");
  }
  assert.equal(reader.remaining, 0);
  return { keys, values, count };
}

test("Produce records are one batch v2 holding the two keyed messages", () => {
  for (const client of ["kcat", "kafkajs"] as const) {
    const body = decoded(fixture(client, "Produce")).body as unknown as ProduceBody;
    const records = body.topicData[0]?.partitionData[0]?.records;
    assert.ok(records instanceof Uint8Array, client);
    assert.equal(records.length, 99, client);
    assert.equal(records[16], 2, `${client}: magic byte`);
    const batch = readBatch(records);
    assert.equal(batch.count, 2, client);
    assert.deepEqual(batch.keys, ["key-1", "key-2"], client);
    assert.deepEqual(batch.values, ["value-1", "value-2"], client);
  }
});

test("the record batch decoder reads the same keys and values, with a valid CRC", () => {
  const text = new TextDecoder();
  for (const client of ["kcat", "kafkajs"] as const) {
    const body = decoded(fixture(client, "Produce")).body as unknown as ProduceBody;
    const records = body.topicData[0]?.partitionData[0]?.records;
    assert.ok(records instanceof Uint8Array, client);
    const batch = decodeRecords(records, { maxDecompressedBytes: 1 << 20 });
    assert.ok(batch.ok, `${client}: ${JSON.stringify(batch)}`);
    assert.equal(batch.header.baseOffset, 0, client);
    const read = (bytes: Uint8Array | null): string | null =>
      bytes === null ? null : text.decode(bytes);
    assert.deepEqual(
      batch.records.map((record) => read(record.key)),
      ["key-1", "key-2"],
    );
    assert.deepEqual(
      batch.records.map((record) => read(record.value)),
      ["value-1", "value-2"],
    );
    assert.deepEqual(
      batch.records.map((record) => record.offset),
      [0, 1],
      client,
    );
  }
});
