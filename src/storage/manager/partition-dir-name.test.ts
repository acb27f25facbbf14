import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Uuid } from "../../common/index.js";
import {
  currentDirName,
  deleteDirName,
  futureDirName,
  parsePartitionDirName,
  strayDirName,
} from "./partition-dir-name.js";

const UNIQUE_ID = "0123456789abcdef0123456789abcdef" as Uuid;

test("a current folder is parsed with the partition after the last dash", () => {
  assert.deepEqual(parsePartitionDirName("orders-3"), {
    kind: "current",
    topicPartition: { topic: "orders", partition: 3 },
  });
  assert.deepEqual(parsePartitionDirName("my-topic-with-dashes-12"), {
    kind: "current",
    topicPartition: { topic: "my-topic-with-dashes", partition: 12 },
  });
});

test("suffixed folders carry their kind and the partition before the unique id", () => {
  for (const [name, kind] of [
    [`orders-3.${UNIQUE_ID}-delete`, "delete"],
    [`orders-3.${UNIQUE_ID}-future`, "future"],
    [`orders-3.${UNIQUE_ID}-stray`, "stray"],
  ] as const) {
    assert.deepEqual(parsePartitionDirName(name), {
      kind,
      topicPartition: { topic: "orders", partition: 3 },
    });
  }
});

test("names that are not partition folders are refused", () => {
  for (const name of ["orders", "-3", "orders-", "orders-x", "orders-3-delete", "lost+found"]) {
    assert.equal(parsePartitionDirName(name), undefined, name);
  }
  assert.equal(parsePartitionDirName("orders-99999999999"), undefined);
});

test("every name the manager writes parses back to its partition and kind", () => {
  const topic = fc.stringMatching(/^[a-zA-Z0-9._-]{1,249}$/);
  const partition = fc.integer({ min: 0, max: 0x7fffffff });
  fc.assert(
    fc.property(topic, partition, (topicName, index) => {
      const topicPartition = { topic: topicName, partition: index };
      assert.deepEqual(parsePartitionDirName(currentDirName(topicPartition)), {
        kind: "current",
        topicPartition,
      });
      assert.deepEqual(parsePartitionDirName(futureDirName(topicPartition, UNIQUE_ID)), {
        kind: "future",
        topicPartition,
      });
      const deleted = parsePartitionDirName(deleteDirName(topicPartition, UNIQUE_ID));
      assert.equal(deleted?.kind, "delete");
      assert.equal(deleted.topicPartition.partition, index);
    }),
    { seed: 20240601 },
  );
});

test("deleted and stray folder names are capped at 255 characters as Kafka caps them", () => {
  const topicPartition = { topic: "t".repeat(249), partition: 1234567 };
  const deleted = deleteDirName(topicPartition, UNIQUE_ID);
  assert.equal(deleted.length, 255);
  assert.ok(deleted.endsWith(`-1234567.${UNIQUE_ID}-delete`));
  assert.equal(strayDirName(topicPartition, UNIQUE_ID).length, 255);
  assert.equal(deleteDirName({ topic: "short", partition: 0 }, UNIQUE_ID).length, 47);
});
