/**
 * Limits and size keys as real clients meet them: the metadata log rolls at
 * metadata.log.segment.bytes, a compressed batch is judged by its compressed size, and a topic
 * name too long for Kafka is refused with INVALID_TOPIC_EXCEPTION.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { promisify } from "node:util";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { SluiceProcess } from "./sluice-process.js";

const run = promisify(execFile);
const TOPIC_RESOURCE = 2;
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

/** Runs kcat with `input` on its stdin; resolves to its stdout, rejects on a failed exit. */
async function kcatWithInput(args: readonly string[], input: string): Promise<string> {
  const child = spawn("kcat", args, { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.stdin.end(input);
  const code = await exited;
  assert.equal(code, 0, output);
  return output;
}

test("a kcat zstd batch of 12 MB of records, far smaller compressed, is accepted", async () => {
  const count = 12_000;
  // Lines of 1,000 bytes that differ a little: zstd shrinks them far below message.max.bytes.
  const lines = Array.from({ length: count }, (_, index) => String(index).padEnd(1000, "x"));
  await kcatWithInput(
    [
      ...["-P", "-b", node.bootstrap, "-t", "inflating", "-z", "zstd"],
      ...["-X", "batch.size=100000000", "-X", "batch.num.messages=100000"],
      ...["-X", "message.max.bytes=100000000", "-X", "linger.ms=2000"],
    ],
    `${lines.join("\n")}\n`,
  );
  const { stdout } = await run(
    "kcat",
    ["-C", "-b", node.bootstrap, "-t", "inflating", "-o", "beginning", "-e", "-f", "%s\\n"],
    { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  const consumed = stdout.split("\n").filter((line) => line !== "");
  assert.equal(consumed.length, count);
  assert.deepEqual(consumed.slice(0, 2), lines.slice(0, 2));
  assert.doesNotMatch(node.log, /MESSAGE_TOO_LARGE/);
});

test("kafkajs sets and describes the topic configs Kafka 3.x still accepts", async () => {
  const admin = kafka().admin();
  await admin.connect();
  try {
    const configEntries = [
      { name: "message.format.version", value: "2.8" },
      { name: "message.downconversion.enable", value: "false" },
    ];
    await admin.createTopics({ topics: [{ topic: "kafka3-configs", configEntries }] });
    const described = await admin.describeConfigs({
      // kafkajs's ConfigResourceTypes.TOPIC (an enum its ES module build does not export).
      resources: [{ type: TOPIC_RESOURCE, name: "kafka3-configs" }],
      includeSynonyms: false,
    });
    const entries = described.resources[0]?.configEntries ?? [];
    const valueOf = (name: string) => entries.find((entry) => entry.configName === name);
    assert.equal(valueOf("message.format.version")?.configValue, "2.8");
    assert.equal(valueOf("message.downconversion.enable")?.configValue, "false");
    assert.equal(valueOf("message.timestamp.difference.max.ms")?.isDefault, true);
  } finally {
    await admin.disconnect();
  }
});
