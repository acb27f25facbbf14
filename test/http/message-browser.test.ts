/**
 * The message browser (`GET /v1/messages`) of a running node, over records kafkajs produced:
 * reads from the log start, an offset inside a batch, a timestamp (ListOffsets' first offset
 * at or after it), in a gzip-compressed batch, with keys, headers and values as text, JSON and
 * hex, bounded by the limit; and the refusals of what it cannot read. The cluster view the
 * dashboard draws lists the group whose offsets a kafkajs admin commits, with its lag.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { CompressionTypes, Kafka, logLevel } from "kafkajs";
import { SluiceProcess } from "../clients/sluice-process.js";

const TOPIC = "browsed";

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create(["num.partitions=1"]);
  await node.start();
  const kafka = new Kafka({
    clientId: "browser",
    brokers: [node.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  // Offsets 0 and 1 in one plain batch, 2 to 4 in one gzip batch.
  await producer.send({
    topic: TOPIC,
    messages: [
      { key: "a", value: "plain text", timestamp: "1000", headers: { trace: "t-1" } },
      { key: Buffer.from([0, 255]), value: '{"n":2}', timestamp: "2000" },
    ],
  });
  await producer.send({
    topic: TOPIC,
    compression: CompressionTypes.GZIP,
    messages: [
      { key: "c", value: '{"n":3}', timestamp: "3000" },
      { key: "d", value: null, timestamp: "4000" },
      { key: "e", value: "last", timestamp: "5000" },
    ],
  });
  await producer.disconnect();
});

after(() => node.destroy());

interface Field {
  readonly format: string;
  readonly text: string;
}
interface Browsed {
  readonly startOffset: number;
  readonly highWatermark: number;
  readonly nextOffset: number;
  readonly records: {
    readonly offset: number;
    readonly timestamp: number;
    readonly key: Field | null;
    readonly value: Field | null;
    readonly headers: { key: string; value: Field | null }[];
  }[];
}

async function browse(query: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://127.0.0.1:${node.ports.http}/v1/messages?${query}`);
  return { status: response.status, body: await response.json() };
}

async function records(query: string): Promise<Browsed> {
  const { status, body } = await browse(`topic=${TOPIC}&${query}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body as Browsed;
}

test("from the log start, as many as the limit, with keys, headers and text", async () => {
  const read = await records("limit=2");
  assert.equal(read.startOffset, 0);
  assert.equal(read.highWatermark, 5);
  assert.equal(read.nextOffset, 2);
  assert.deepEqual(
    read.records.map((record) => [record.offset, record.timestamp, record.key?.text]),
    [
      [0, 1000, "a"],
      // A key that is not UTF-8 is shown as hex, saying so.
      [1, 2000, "00 ff"],
    ],
  );
  assert.equal(read.records[1]?.key?.format, "hex");
  assert.deepEqual(read.records[0]?.headers, [
    { key: "trace", value: { format: "text", text: "t-1", sizeBytes: 3, isTruncated: false } },
  ]);
});

test("from an offset inside a compressed batch, values as JSON, a null value as null", async () => {
  const read = await records("offset=3&format=json");
  assert.deepEqual(
    read.records.map((record) => [record.offset, record.value?.text ?? null]),
    [
      [3, null],
      [4, "last"],
    ],
  );
  const json = await records("offset=2&limit=1&format=json");
  assert.deepEqual(json.records[0]?.value, {
    format: "json",
    text: '{\n  "n": 3\n}',
    sizeBytes: 7,
    isTruncated: false,
  });
});

test("from a time: the first record at or after it", async () => {
  const read = await records("timestamp=2500&format=hex");
  assert.equal(read.startOffset, 2);
  assert.equal(read.records[0]?.value?.text, "7b 22 6e 22 3a 33 7d");
  const late = await browse(`topic=${TOPIC}&timestamp=9000`);
  assert.equal(late.status, 404);
});

test("what cannot be read is refused with a message", async () => {
  const missing = await browse("topic=nothing-here");
  assert.equal(missing.status, 404);
  assert.match((missing.body as { error: string }).error, /no partition nothing-here-0/);
  const beyond = await browse(`topic=${TOPIC}&offset=100`);
  assert.equal(beyond.status, 400);
  assert.match((beyond.body as { error: string }).error, /outside/);
  const bad = await browse(`topic=${TOPIC}&limit=500`);
  assert.equal(bad.status, 400);
});

test("the cluster view lists a group this node coordinates with its lag", async () => {
  const kafka = new Kafka({
    clientId: "lag",
    brokers: [node.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.setOffsets({
      groupId: "readers",
      topic: TOPIC,
      partitions: [{ partition: 0, offset: "2" }],
    });
  } finally {
    await admin.disconnect();
  }
  const response = await fetch(`http://127.0.0.1:${node.ports.http}/v1/cluster`);
  const view = (await response.json()) as { groups: unknown[] };
  assert.deepEqual(view.groups, [
    {
      groupId: "readers",
      groupType: "classic",
      state: "Empty",
      totalLag: 3,
      offsets: [{ topic: TOPIC, partition: 0, committedOffset: 2, highWatermark: 5, lag: 3 }],
    },
  ]);
});
