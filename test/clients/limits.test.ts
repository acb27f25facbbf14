/**
 * Limits and size keys as real clients meet them: the metadata log rolls at
 * metadata.log.segment.bytes, a compressed batch is judged by its compressed size, and a topic
 * name too long for Kafka is refused with INVALID_TOPIC_EXCEPTION.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { SluiceProcess } from "./sluice-process.js";

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create([
    "metadata.log.segment.min.bytes=4096",
    "metadata.log.segment.bytes=4096",
  ]);
  await node.start();
});

after(async () => {
  await node.destroy();
});

function kafka(): Kafka {
  return new Kafka({ clientId: "limits", brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
}

test("the metadata log rolls its segments at metadata.log.segment.bytes", async () => {
  const admin = kafka().admin();
  await admin.connect();
  try {
    // One topic a request: each request's records are one batch, and a batch must fit a segment.
    for (let index = 0; index < 40; index++) {
      const topics = [{ topic: `rolled-${index}`, numPartitions: 2 }];
      await admin.createTopics({ topics, waitForLeaders: false });
    }
  } finally {
    await admin.disconnect();
  }
  const metadataDir = join(node.dataDir, "data", "__cluster_metadata-0");
  const segments = readdirSync(metadataDir).filter((name) => name.endsWith(".log"));
  // 40 topics of 2 partitions are far more than 4 KiB of records; at 1 GiB they share one.
  assert.ok(segments.length >= 3, `segments: ${segments.join(", ")}`);
});

test("a kafkajs topic named with over 249 characters gets INVALID_TOPIC_EXCEPTION", async () => {
  const admin = kafka().admin();
  await admin.connect();
  try {
    for (const length of [250, 32_767]) {
      const topics = [{ topic: "n".repeat(length) }];
      await assert.rejects(admin.createTopics({ topics }), (error: Error) => {
        const errors = (error as Error & { errors?: { type: string }[] }).errors ?? [];
        assert.deepEqual(
          errors.map((each) => each.type),
          ["INVALID_TOPIC_EXCEPTION"],
          `${length} characters`,
        );
        return true;
      });
    }
  } finally {
    await admin.disconnect();
  }
  assert.doesNotMatch(node.log, /does not encode/);
});
