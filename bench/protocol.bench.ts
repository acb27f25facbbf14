// Decode-rate benchmarks of the schema-driven codec on the hot path: Produce and Fetch.
import { ByteReader } from "../src/protocol/codec/reader.js";
import { ByteWriter } from "../src/protocol/codec/writer.js";
import { fetch, produce } from "../src/protocol/messages/index.js";

/** One measured figure. */
export interface Measurement {
  label: string;
  value: number;
  unit: string;
}

const MIN_DURATION_MS = 300;

function encoded(write: (writer: ByteWriter) => void): Uint8Array {
  const writer = new ByteWriter();
  write(writer);
  return writer.finish();
}

function produceRequest(partitions: number, recordsBytes: number): Uint8Array {
  const records = new Uint8Array(recordsBytes).fill(7);
  const partitionData = Array.from({ length: partitions }, (_, index) => ({ index, records }));
  const body = {
    transactionalId: null,
    acks: -1,
    timeoutMs: 30000,
    topicData: [{ name: "bench", partitionData }],
  };
  return encoded((writer) => produce.encodeRequest(9, body, writer));
}

function fetchRequest(partitions: number): Uint8Array {
  const partitionsData = Array.from({ length: partitions }, (_, partition) => ({
    partition,
    currentLeaderEpoch: 1,
    fetchOffset: 1000,
    lastFetchedEpoch: -1,
    logStartOffset: -1,
    partitionMaxBytes: 1048576,
  }));
  const topics = [{ topicId: "0123456789abcdef0123456789abcdef", partitions: partitionsData }];
  const body = { replicaId: -1, maxWaitMs: 500, minBytes: 1, maxBytes: 52428800, topics };
  return encoded((writer) => fetch.encodeRequest(13, body, writer));
}

function fetchResponse(partitions: number, recordsBytes: number): Uint8Array {
  const records = new Uint8Array(recordsBytes).fill(3);
  const partitionData = Array.from({ length: partitions }, (_, partitionIndex) => ({
    partitionIndex,
    highWatermark: 5000,
    lastStableOffset: 5000,
    logStartOffset: 0,
    records,
  }));
  const responses = [{ topicId: "0123456789abcdef0123456789abcdef", partitions: partitionData }];
  return encoded((writer) => fetch.encodeResponse(13, { responses }, writer));
}

/** Decodes `bytes` repeatedly for at least MIN_DURATION_MS; returns requests/s and MB/s. */
function measureDecode(
  label: string,
  bytes: Uint8Array,
  decode: (reader: ByteReader) => unknown,
): Measurement[] {
  for (let i = 0; i < 200; i++) decode(new ByteReader(bytes));
  let count = 0;
  const start = performance.now();
  let elapsedMs = 0;
  while (elapsedMs < MIN_DURATION_MS) {
    for (let i = 0; i < 100; i++) decode(new ByteReader(bytes));
    count += 100;
    elapsedMs = performance.now() - start;
  }
  const perSecond = (count * 1000) / elapsedMs;
  return [
    { label: `${label} decode`, value: Math.round(perSecond), unit: "messages/s" },
    {
      label: `${label} decode`,
      value: Number(((perSecond * bytes.length) / 1e6).toFixed(1)),
      unit: "MB/s",
    },
  ];
}

/** The protocol benchmarks, run by bench/run.ts. */
export const benchmarks: { name: string; run(): Promise<Measurement[]> }[] = [
  {
    name: "produce request decode",
    run: async () => [
      ...measureDecode("Produce v9, 1 partition, 16 KiB records", produceRequest(1, 16384), (r) =>
        produce.decodeRequest(9, r),
      ),
      ...measureDecode(
        "Produce v9, 100 partitions, 1 KiB records each",
        produceRequest(100, 1024),
        (r) => produce.decodeRequest(9, r),
      ),
    ],
  },
  {
    name: "fetch decode",
    run: async () => [
      ...measureDecode("Fetch v13 request, 100 partitions", fetchRequest(100), (r) =>
        fetch.decodeRequest(13, r),
      ),
      ...measureDecode(
        "Fetch v13 response, 100 partitions, 1 KiB records each",
        fetchResponse(100, 1024),
        (r) => fetch.decodeResponse(13, r),
      ),
    ],
  },
];
