/**
 * Fixtures of the cleaner tests: a compacted partition log (the real PartitionLog) on the
 * simulated disk, keyed appends, the cleaner over it, and the log's records as a consumer sees
 * them, for comparison with the model of compaction.
 */
import assert from "node:assert/strict";
import { decodeRecords, encodeBatch, iterateBatches } from "../../src/protocol/index.js";
import { LogCleaner, type CleanerConfig, type PartitionLog } from "../../src/storage/index.js";
import { LogHarness, readAll, testConfig } from "./log-harness.js";

/** The log dir holding the partition folder and the cleaner-offset-checkpoint. */
export const logDir = "/data";

/** Small segments and no waiting, so that a few writes give several cleanable segments. */
export const compactConfig = testConfig({
  segmentBytes: 400,
  cleanupPolicy: { delete: false, compact: true },
  minCleanableDirtyRatio: 0,
  deleteRetentionMs: 1000,
  indexIntervalBytes: 100,
});

/** A write: a key and a value, null for a tombstone. */
export type Write = readonly [key: string, value: string | null];

/** A record as a consumer sees it. */
export interface SeenRecord {
  readonly offset: number;
  readonly key: string | null;
  readonly value: string | null;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (text: string | null) => (text === null ? null : encoder.encode(text));
const decode = (bytes: Uint8Array | null) => (bytes === null ? null : decoder.decode(bytes));

/** One batch holding one keyed record. */
export function keyedBatch(write: Write, timestamp: number): Uint8Array {
  return encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: 0,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: [{ timestamp, key: encode(write[0]), value: encode(write[1]) }],
  });
}

/** Appends each write as its own batch, in order, without driving the simulation. */
export async function appendWrites(
  log: PartitionLog,
  writes: readonly Write[],
  firstTimestamp = 1000,
): Promise<void> {
  const appends = writes.map((write, index) =>
    log.appendAsLeader(keyedBatch(write, firstTimestamp + index), { leaderEpoch: 0 }),
  );
  await Promise.all(appends);
}

/** Opens the compacted log on `harness` and appends `writes` durably. */
export async function compactedLog(
  harness: LogHarness,
  writes: readonly Write[],
): Promise<PartitionLog> {
  const log = await harness.open(compactConfig);
  await harness.run(appendWrites(log, writes).then(() => log.flush()));
  return log;
}

/** The cleaner over `log` alone, with the whole log below its high watermark. */
export function cleanerOf(
  harness: LogHarness,
  log: () => PartitionLog,
  config?: CleanerConfig,
): LogCleaner {
  return new LogCleaner({
    fileSystem: harness.fs,
    logger: harness.logger,
    ...(config === undefined ? {} : { config }),
    logs: () => [{ log: log(), logDir, config: compactConfig, highWatermark: log().logEndOffset }],
  });
}

/** Decodes runs of whole batches into the records a consumer would see. */
export function recordsOf(runs: readonly { bytes: Uint8Array }[]): SeenRecord[] {
  const batches = runs.flatMap(({ bytes }) => [
    ...iterateBatches(bytes, { maxBatchBytes: 1 << 30 }),
  ]);
  return batches.flatMap((entry) => {
    assert.ok(entry.kind === "batch", "the log serves whole batches");
    if (entry.kind !== "batch") return [];
    const decoded = decodeRecords(entry.bytes, { maxDecompressedBytes: 1 << 22 });
    assert.ok(decoded.ok, "a batch of the log decodes");
    if (!decoded.ok) return [];
    return decoded.records.map((record) => ({
      offset: record.offset,
      key: decode(record.key),
      value: decode(record.value),
    }));
  });
}

/** Every record the log serves from its start. */
export async function readRecords(harness: LogHarness, log: PartitionLog): Promise<SeenRecord[]> {
  return recordsOf(await readAll(harness, log));
}

/** The model: below `endOffset` only the latest record of each key, from it on everything. */
export function latestPerKey(records: readonly SeenRecord[], endOffset: number): SeenRecord[] {
  const latest = new Map<string | null, number>();
  for (const record of records)
    if (record.offset < endOffset) latest.set(record.key, record.offset);
  return records.filter(
    (record) => record.offset >= endOffset || latest.get(record.key) === record.offset,
  );
}
