/**
 * A restart in the middle keeps every acknowledged message: kafkajs produces with acks=-1, the
 * node is stopped (SIGTERM: clean shutdown; SIGKILL: as a crash) and started again on the same
 * data dir, more is produced, and kcat reads back exactly what was acknowledged, in order.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Kafka, logLevel } from "kafkajs";
import { SluiceProcess } from "./sluice-process.js";

const run = promisify(execFile);
const nodes: SluiceProcess[] = [];

after(async () => {
  for (const node of nodes) await node.destroy();
});

/** Produces `count` messages numbered from `first` with acks=-1; returns those acknowledged. */
async function produce(node: SluiceProcess, first: number, count: number): Promise<string[]> {
  const kafka = new Kafka({
    clientId: "restart",
    brokers: [node.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({ idempotent: false });
  await producer.connect();
  const acknowledged: string[] = [];
  try {
    for (let index = first; index < first + count; index += 25) {
      const messages = Array.from({ length: 25 }, (_, offset) => ({
        key: `k${(index + offset) % 7}`,
        value: `message ${index + offset}`,
      }));
      await producer.send({ topic: "durable", acks: -1, messages });
      acknowledged.push(...messages.map((message) => `${message.key}=${message.value}`));
    }
  } finally {
    await producer.disconnect();
  }
  return acknowledged;
}

async function consumeAll(node: SluiceProcess): Promise<string[]> {
  const { stdout } = await run(
    "kcat",
    ["-C", "-b", node.bootstrap, "-t", "durable", "-o", "beginning", "-e", "-f", "%k=%s\\n"],
    { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout.split("\n").filter((line) => line !== "");
}

for (const signal of ["SIGTERM", "SIGKILL"] as const) {
  test(`every acknowledged message survives a ${signal} restart`, async () => {
    const node = await SluiceProcess.create();
    nodes.push(node);
    await node.start();
    const before = await produce(node, 0, 500);
    const code = await node.stop(signal);
    if (signal === "SIGTERM") assert.equal(code, 0, node.log);
    await node.start();
    const afterRestart = await produce(node, 500, 250);
    assert.deepEqual(await consumeAll(node), [...before, ...afterRestart]);
  });
}
