import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import { FileSystemError } from "../../../src/ports/index.js";
import { full, partitionRecord, topicRecord } from "../../../src/metadata/records.test-support.js";
import { MetadataRecordType } from "../../../src/protocol/index.js";
import type { DirectoryAssignment } from "../../../src/replication/index.js";
import { TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { fetchRequest, produceRequest } from "./requests.js";

const ALTER_REPLICA_LOG_DIRS = 34;
const DESCRIBE_LOG_DIRS = 35;

/** Broker 1 with two log dirs, leading "orders"-0 and -1; "orders"-2 lives on broker 2. */
async function twoDirBroker(seed: number) {
  const broker = await startBroker({ seed, logDirs: ["/data/a", "/data/b"] });
  await broker.publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1]),
    partitionRecord(TOPIC_ID, 1, [1]),
    partitionRecord(TOPIC_ID, 2, [2]),
  ]);
  return broker;
}

/** Runs the broker's simulator until `condition` holds, looking every 10 simulated ms. */
async function until(broker: Awaited<ReturnType<typeof twoDirBroker>>, condition: () => boolean) {
  const { timers } = broker.harness.node;
  await broker.harness.run(
    (async () => {
      while (!condition()) {
        await new Promise((resolve) => timers.schedule(10, () => resolve(undefined)));
      }
    })(),
  );
}

function alter(dirs: { path: string; partitions: number[] }[]) {
  return {
    dirs: dirs.map(({ path, partitions }) => ({ path, topics: [{ name: "orders", partitions }] })),
  };
}

function errorCodes(body: unknown): [number, number][] {
  const partitions = at(body, "results", 0, "partitions") as {
    partitionIndex: number;
    errorCode: number;
  }[];
  return partitions.map(({ partitionIndex, errorCode }) => [partitionIndex, errorCode]);
}

test("AlterReplicaLogDirs moves a replica in the background, its records intact", async () => {
  const broker = await twoDirBroker(701);
  for (let batch = 0; batch < 5; batch++) await broker.call(0, 11, produceRequest({ acks: 1 }));
  const topicPartition = { topic: "orders", partition: 0 };
  const source = broker.logManager.logDirOf(topicPartition);
  const target = source === "/data/a" ? "/data/b" : "/data/a";
  const moved = await broker.call(
    ALTER_REPLICA_LOG_DIRS,
    2,
    alter([{ path: target, partitions: [0] }]),
  );
  assert.deepEqual(errorCodes(moved), [[0, ErrorCode.NONE]]);
  await until(broker, () => broker.logManager.logDirOf(topicPartition) === target);
  assert.equal(broker.logManager.getFutureLog(topicPartition), undefined);
  assert.equal(broker.replicaManager.getPartitionOrError(topicPartition).kind, "online");
  await broker.call(0, 11, produceRequest({ acks: 1 }));
  const fetched = await broker.call(1, 12, fetchRequest([{ partition: 0, fetchOffset: 0 }]));
  assert.equal(at(fetched, "responses", 0, "partitions", 0, "errorCode"), ErrorCode.NONE);
  assert.equal(at(fetched, "responses", 0, "partitions", 0, "highWatermark"), 12);
  const described = await broker.call(DESCRIBE_LOG_DIRS, 3, { topics: null });
  const results = at(described, "results") as { logDir: string; topics: unknown[] }[];
  const holding = results.find((result) => result.logDir === target);
  assert.ok(JSON.stringify(holding?.topics).includes('"partitionIndex":0'));
});

test("AlterReplicaLogDirs answers each partition with Kafka's error codes", async () => {
  const broker = await twoDirBroker(702);
  const body = await broker.call(
    ALTER_REPLICA_LOG_DIRS,
    1,
    alter([
      { path: "/data/nowhere", partitions: [1] },
      { path: "/data/b", partitions: [2, 9] },
    ]),
  );
  assert.deepEqual(errorCodes(body), [
    [1, ErrorCode.LOG_DIR_NOT_FOUND],
    [2, ErrorCode.REPLICA_NOT_AVAILABLE],
    [9, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
  ]);
  const here = broker.logManager.logDirOf({ topic: "orders", partition: 1 });
  const other = here === "/data/a" ? "/data/b" : "/data/a";
  const same = await broker.call(
    ALTER_REPLICA_LOG_DIRS,
    2,
    alter([{ path: here ?? "", partitions: [1] }]),
  );
  assert.deepEqual(errorCodes(same), [[1, ErrorCode.NONE]], "already there");
  broker.logManager.reportIoError(other, new FileSystemError("EIO", "write", `${other}/x`));
  const offline = await broker.call(
    ALTER_REPLICA_LOG_DIRS,
    2,
    alter([{ path: other, partitions: [1] }]),
  );
  assert.deepEqual(errorCodes(offline), [[1, ErrorCode.KAFKA_STORAGE_ERROR]]);
});

/**
 * Broker 1 with two log dirs and a recording DirectoryAssigner, on a metadata.version that
 * records log dirs, leading "orders"-0; `source` is the dir its log is in, `target` the other.
 */
async function assigningBroker(seed: number) {
  const sent: { assignment: DirectoryAssignment; onAccepted: (() => void) | undefined }[] = [];
  const directoryAssigner = {
    assign: (assignment: DirectoryAssignment, onAccepted?: () => void) =>
      void sent.push({ assignment, onAccepted }),
  };
  const broker = await startBroker({ seed, logDirs: ["/data/a", "/data/b"], directoryAssigner });
  await broker.publish([
    full({
      type: MetadataRecordType.FeatureLevelRecord,
      data: { name: "metadata.version", featureLevel: 22 },
    }),
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1]),
  ]);
  const source = broker.logManager.logDirOf({ topic: "orders", partition: 0 }) ?? "";
  const target = source === "/data/a" ? "/data/b" : "/data/a";
  return { broker, sent, source, target };
}

test("a move reports its target dir to the controller and swaps only once accepted", async () => {
  const { broker, sent, source, target } = await assigningBroker(703);
  const topicPartition = { topic: "orders", partition: 0 };
  const idOf = (dir: string) => broker.logManager.directoryIdOf(dir);
  assert.deepEqual(
    sent.map(({ assignment }) => assignment),
    [{ topicId: TOPIC_ID, partitionIndex: 0, directoryId: idOf(source) }],
    "a new replica's dir is reported",
  );
  await broker.call(0, 11, produceRequest({ acks: 1 }));
  const moved = await broker.call(
    ALTER_REPLICA_LOG_DIRS,
    2,
    alter([{ path: target, partitions: [0] }]),
  );
  assert.deepEqual(errorCodes(moved), [[0, ErrorCode.NONE]]);
  await until(broker, () => sent.length === 2);
  assert.equal(sent[1]?.assignment.directoryId, idOf(target));
  // A second of copy rounds passes without the controller's answer: no swap.
  const { timers } = broker.harness.node;
  await broker.harness.run(new Promise((resolve) => timers.schedule(1000, () => resolve(0))));
  assert.equal(broker.logManager.logDirOf(topicPartition), source, "not swapped before accepted");
  assert.notEqual(broker.logManager.getFutureLog(topicPartition), undefined);
  const described = await broker.call(DESCRIBE_LOG_DIRS, 4, { topics: null });
  const partitionsIn = (dir: string) =>
    (at(described, "results") as { logDir: string; topics: { partitions: unknown[] }[] }[])
      .find((result) => result.logDir === dir)
      ?.topics.flatMap((topic) => topic.partitions);
  assert.deepEqual(
    (partitionsIn(target) as { isFutureKey: boolean; offsetLag: number }[]).map((p) => [
      p.isFutureKey,
      p.offsetLag,
    ]),
    [[true, 0]],
    "the caught-up future replica shows in its target dir",
  );
  assert.deepEqual(
    (partitionsIn(source) as { isFutureKey: boolean }[]).map((p) => p.isFutureKey),
    [false],
  );
  sent[1]?.onAccepted?.();
  await until(broker, () => broker.logManager.logDirOf(topicPartition) === target);
  assert.equal(broker.logManager.getFutureLog(topicPartition), undefined);
});

test("a move cancelled after the controller heard of it reports the dir again", async () => {
  const { broker, sent, source, target } = await assigningBroker(704);
  const topicPartition = { topic: "orders", partition: 0 };
  await broker.call(ALTER_REPLICA_LOG_DIRS, 2, alter([{ path: target, partitions: [0] }]));
  await until(broker, () => sent.length === 2);
  const back = await broker.call(
    ALTER_REPLICA_LOG_DIRS,
    2,
    alter([{ path: source, partitions: [0] }]),
  );
  assert.deepEqual(errorCodes(back), [[0, ErrorCode.NONE]]);
  assert.deepEqual(
    sent.map(({ assignment }) => assignment.directoryId),
    [source, target, source].map((dir) => broker.logManager.directoryIdOf(dir)),
  );
  assert.equal(broker.logManager.getFutureLog(topicPartition), undefined, "the move is dropped");
  assert.equal(broker.logManager.logDirOf(topicPartition), source);
});
