import { after, test } from "node:test";
import assert from "node:assert/strict";
import { FakeBroker, GOLDEN_TOPIC } from "./fake-broker.js";
import type { CapturedFrame } from "./fake-broker.js";
import { produceWithKafkajs, startKcat } from "./clients.js";
import type { KcatRun } from "./clients.js";
import { encodeRequest } from "../../src/protocol/request.js";

/**
 * The capture flow live: kcat and kafkajs produce to the fake broker, and every request they send
 * must decode, re-encode to the same bytes, and include ApiVersions, Metadata and Produce. Each
 * wait has a deadline; children and listeners are cleaned up after the tests.
 */

const DEADLINE_MS = 30_000;
const brokers: FakeBroker[] = [];
const kcatRuns: KcatRun[] = [];

after(async () => {
  for (const run of kcatRuns) run.stop();
  await Promise.all(brokers.map((broker) => broker.close()));
});

/** Resolves as `promise` does, or rejects once `deadlineMs` passes without it settling. */
function withDeadline<T>(promise: Promise<T>, deadlineMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const expire = (): void => reject(new Error(`${what}: no result in ${deadlineMs} ms`));
    timer = setTimeout(expire, deadlineMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

async function startBroker(): Promise<FakeBroker> {
  const broker = await FakeBroker.start();
  brokers.push(broker);
  return broker;
}

function checkFrames(frames: readonly CapturedFrame[], clientId: string): void {
  const apiKeys = new Set(frames.map((frame) => frame.apiKey));
  for (const apiKey of [18, 3, 0]) assert.ok(apiKeys.has(apiKey), `no request with key ${apiKey}`);
  for (const frame of frames) {
    const { decoded } = frame;
    assert.equal(decoded.kind, "request", `${frame.apiKey} v${frame.apiVersion} did not decode`);
    assert.equal(decoded.header.clientId, clientId);
    const again = Buffer.concat(encodeRequest(decoded.header, decoded.body)).subarray(4);
    assert.deepEqual(Uint8Array.from(again), frame.bytes, "re-encoding gives the same bytes");
  }
  const produce = frames.find((frame) => frame.apiKey === 0);
  assert.ok(produce?.decoded.kind === "request");
  assert.equal(produce.decoded.body["acks"], -1);
}

test("kcat's requests to the fake broker all decode", async () => {
  const broker = await startBroker();
  const run = startKcat(broker.port, GOLDEN_TOPIC);
  kcatRuns.push(run);
  const result = await withDeadline(run.done, DEADLINE_MS, "kcat");
  assert.equal(result.exitCode, 0, result.stderr);
  checkFrames(broker.frames, "rdkafka");
});

test("kafkajs's requests to the fake broker all decode", async () => {
  const broker = await startBroker();
  await withDeadline(produceWithKafkajs(broker.port, GOLDEN_TOPIC), DEADLINE_MS, "kafkajs");
  checkFrames(broker.frames, "kafkajs");
});
