import { test } from "node:test";
import assert from "node:assert/strict";
import type { Uuid } from "../common/index.js";
import { MalformedFileError } from "./malformed-file-error.js";
import { MemoryFileSystem } from "./memory-file-system.test-support.js";
import { formatPartitionMetadata, parsePartitionMetadata } from "./partition-metadata.js";
import { readPartitionMetadata, writePartitionMetadata } from "./partition-metadata.driver.js";

const TOPIC_ID = "0f3d434e71f74f458bdddc498190a4be" as Uuid;

test("partition.metadata is Kafka's two lines with the topic id in base64", () => {
  assert.equal(formatPartitionMetadata(TOPIC_ID), "version: 0\ntopic_id: Dz1DTnH3T0WL3dxJgZCkvg\n");
  assert.deepEqual(parsePartitionMetadata("version: 0\ntopic_id: Dz1DTnH3T0WL3dxJgZCkvg\n"), {
    kind: "parsed",
    value: TOPIC_ID,
  });
});

test("a partition.metadata of another version or with a bad topic id is malformed", () => {
  for (const text of [
    "version: 1\ntopic_id: Dz1DTnH3T0WL3dxJgZCkvg\n",
    "version:0\ntopic_id: Dz1DTnH3T0WL3dxJgZCkvg\n",
    "version: 0\ntopic_id: 0f3d434e71f74f458bdddc498190a4be\n",
    "version: 0\n",
    "topic_id: Dz1DTnH3T0WL3dxJgZCkvg\nversion: 0\n",
  ]) {
    assert.equal(parsePartitionMetadata(text).kind, "malformed", JSON.stringify(text));
  }
});

test("partition.metadata is written to and read from the partition folder", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/logs/orders-0", { recursive: true });
  assert.equal(await readPartitionMetadata(disk, "/logs/orders-0"), undefined);
  await writePartitionMetadata(disk, "/logs/orders-0", TOPIC_ID);
  assert.equal(await readPartitionMetadata(disk, "/logs/orders-0"), TOPIC_ID);
  const handle = await disk.open("/logs/orders-0/partition.metadata", { truncate: true });
  await handle.write(new TextEncoder().encode("version: 0\ntopic_id: ???\n"), 0);
  await handle.close();
  await assert.rejects(readPartitionMetadata(disk, "/logs/orders-0"), MalformedFileError);
});
