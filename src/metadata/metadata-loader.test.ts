import { test } from "node:test";
import assert from "node:assert/strict";
import type { BrokerId, Uuid } from "../common/index.js";
import { MetadataRecordType as T } from "../protocol/index.js";
import type { MetadataRecord } from "../protocol/index.js";
import type { MetadataImage } from "./images.js";
import type { MetadataDelta } from "./metadata-delta.js";
import { MetadataLoader } from "./metadata-loader.js";
import { MetadataReplayError } from "./metadata-replay-error.js";
import type { LoaderManifest } from "./publisher.js";
import {
  encodeLatest,
  partitionChange,
  partitionRecord,
  testUuid,
  topicRecord,
} from "./records.test-support.js";

const TOPIC = testUuid(1);
const bytesOf = (records: MetadataRecord[]) => records.map((record) => encodeLatest(record));
const begin = { type: T.BeginTransactionRecord, version: 0, data: { name: "t" } } as MetadataRecord;
const end = { type: T.EndTransactionRecord, version: 0, data: {} } as MetadataRecord;
const abort = {
  type: T.AbortTransactionRecord,
  version: 0,
  data: { reason: null },
} as MetadataRecord;

interface Update {
  readonly delta: MetadataDelta;
  readonly image: MetadataImage;
  readonly manifest: LoaderManifest;
}

function recordingLoader(
  options: { maxBytesBetweenSnapshots?: number; maxSnapshotIntervalMs?: number } = {},
) {
  const loader = new MetadataLoader({ nowMs: 1000, ...options });
  const updates: Update[] = [];
  loader.register({
    name: "recorder",
    onMetadataUpdate: (delta, image, manifest) => updates.push({ delta, image, manifest }),
  });
  let nextOffset = 0;
  const commit = (records: MetadataRecord[], epoch = 1) => {
    loader.handleCommit({
      baseOffset: nextOffset,
      lastOffset: nextOffset + records.length - 1,
      epoch,
      records: bytesOf(records),
    });
    nextOffset += records.length;
  };
  return { loader, updates, commit };
}

test("each committed batch is published with its delta, image and manifest", () => {
  const { loader, updates, commit } = recordingLoader();
  commit([topicRecord("orders", TOPIC), partitionRecord(TOPIC, 0, [1, 2])]);
  commit([partitionChange(TOPIC, 0, { leader: 2 })], 2);
  assert.equal(updates.length, 2);
  const [first, second] = updates;
  assert.deepEqual([...(first?.delta.topicsDelta?.createdTopicIds ?? [])], [TOPIC]);
  assert.deepEqual(second?.manifest.provenance, { lastContainedOffset: 2, lastContainedEpoch: 2 });
  assert.equal(second?.manifest.kind === "logDelta" && second.manifest.numBatches, 1);
  assert.equal(loader.image, second?.image);
  const changes = second?.delta.localChanges(2 as BrokerId);
  assert.deepEqual(
    changes?.electedLeaders.map((local) => local.partitionIndex),
    [0],
  );
  assert.deepEqual(
    second?.delta.localChanges(1 as BrokerId).followers.map((local) => local.topicName),
    ["orders"],
  );
});

test("a publisher registered late first receives the whole current image", () => {
  const { loader, commit } = recordingLoader();
  commit([topicRecord("orders", TOPIC), partitionRecord(TOPIC, 0, [1])]);
  const seen: LoaderManifest[] = [];
  let leaders = 0;
  loader.register({
    name: "late",
    onMetadataUpdate: (delta, _image, manifest) => {
      seen.push(manifest);
      leaders += delta.localChanges(1 as BrokerId).leaders.length;
    },
  });
  assert.deepEqual(
    seen.map((manifest) => manifest.kind),
    ["snapshot"],
  );
  assert.equal(leaders, 1);
  assert.throws(() => loader.register({ name: "late", onMetadataUpdate: () => undefined }));
  assert.equal(loader.unregister("late"), true);
});

test("a metadata transaction is published whole, even across batches, and dropped on abort", () => {
  const { loader, updates, commit } = recordingLoader();
  commit([topicRecord("orders", TOPIC), begin, partitionRecord(TOPIC, 0, [1])]);
  assert.equal(updates.length, 1, "the records before the transaction are published alone");
  assert.equal(updates[0]?.image.provenance.lastContainedOffset, 0);
  assert.equal(loader.snapshotDecision(1000).kind, "notDue");
  commit([partitionRecord(TOPIC, 1, [1]), end]);
  assert.equal(updates.length, 2);
  assert.equal(loader.image.topics.byId.get(TOPIC as Uuid)?.partitions.size, 2);
  commit([begin, partitionRecord(TOPIC, 2, [1])]);
  commit([abort]);
  assert.equal(
    loader.image.topics.byId.get(TOPIC as Uuid)?.partitions.size,
    2,
    "aborted records are dropped",
  );
  assert.equal(loader.image.provenance.lastContainedOffset, 7);
  assert.throws(() => commit([end]), MetadataReplayError);
});

test("a record that names an unknown topic stops the loader with its offset", () => {
  const { commit } = recordingLoader();
  commit([topicRecord("orders", TOPIC)]);
  assert.throws(
    () => commit([partitionChange(testUuid(9), 0, { leader: 1 })]),
    (error) => error instanceof MetadataReplayError && error.offset === 1,
  );
});

test("an undecodable record is a MetadataReplayError with its offset", () => {
  const loader = new MetadataLoader({ nowMs: 0 });
  const call = () =>
    loader.handleCommit({
      baseOffset: 5,
      lastOffset: 5,
      epoch: 1,
      records: [new Uint8Array([9, 9])],
    });
  assert.throws(call, (error) => error instanceof MetadataReplayError && error.offset === 5);
});

test("a snapshot is due after enough bytes, or the interval after a record", () => {
  const bytes = recordingLoader({ maxBytesBetweenSnapshots: 50, maxSnapshotIntervalMs: 0 });
  assert.equal(bytes.loader.snapshotDecision(1000).kind, "notDue");
  bytes.commit([topicRecord("orders", TOPIC)]);
  assert.equal(bytes.loader.snapshotDecision(10 ** 9).kind, "notDue", "the time rule is off");
  bytes.commit([partitionRecord(TOPIC, 0, [1, 2, 3])]);
  const due = bytes.loader.snapshotDecision(1000);
  assert.equal(due.kind === "due" && due.reason, "bytes");
  assert.equal(due.kind === "due" && due.image, bytes.loader.image);
  bytes.loader.snapshotWritten(1000);
  assert.equal(bytes.loader.snapshotDecision(1000).kind, "notDue");

  const time = recordingLoader({ maxSnapshotIntervalMs: 60_000 });
  assert.equal(time.loader.snapshotDecision(100_000).kind, "notDue", "nothing applied yet");
  time.commit([topicRecord("orders", TOPIC)]);
  assert.equal(time.loader.snapshotDecision(60_999).kind, "notDue");
  const interval = time.loader.snapshotDecision(61_000);
  assert.equal(interval.kind === "due" && interval.reason, "interval");
});
