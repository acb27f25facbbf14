import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { FakeBroker, GOLDEN_TOPIC } from "./fake-broker.js";
import type { CapturedFrame } from "./fake-broker.js";
import { produceWithKafkajs, startKcat } from "./clients.js";
import { apiDefinition } from "../../src/protocol/messages/index.js";

/**
 * The golden capture tool, run by hand: `node dist/test/golden/capture.js`. It starts the fake
 * broker, lets kcat and then kafkajs produce two keyed messages each, and writes every request
 * frame they sent to test/golden/fixtures/ as `<client>-<api>-v<version>[-<n>].hex` with a JSON
 * sidecar naming the client, the API and the version. Review the diff before committing.
 */

const FIXTURES = new URL("../../../test/golden/fixtures/", import.meta.url);
const DEADLINE_MS = 20_000;

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

function hex(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 32) {
    lines.push(Buffer.from(bytes.subarray(at, at + 32)).toString("hex"));
  }
  return lines.join("\n") + "\n";
}

function writeFixtures(client: string, frames: readonly CapturedFrame[]): void {
  const seen = new Map<string, number>();
  for (const frame of frames) {
    const api = apiDefinition(frame.apiKey)?.name ?? `api-${frame.apiKey}`;
    const base = `${client}-${kebab(api)}-v${frame.apiVersion}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const name = count === 1 ? base : `${base}-${count}`;
    const sidecar = { client, api, apiKey: frame.apiKey, apiVersion: frame.apiVersion };
    writeFileSync(new URL(`${name}.hex`, FIXTURES), hex(frame.bytes));
    writeFileSync(new URL(`${name}.json`, FIXTURES), JSON.stringify(sidecar, null, 2) + "\n");
    console.log(`wrote ${name} (${frame.bytes.length} bytes, ${frame.decoded.kind})`);
  }
}

async function captureKcat(): Promise<CapturedFrame[]> {
  const broker = await FakeBroker.start();
  const kcat = startKcat(broker.port, GOLDEN_TOPIC);
  try {
    const result = await kcat.done;
    if (result.exitCode !== 0) {
      throw new Error(`kcat failed (${result.exitCode}): ${result.stderr}`);
    }
    return broker.frames;
  } finally {
    kcat.stop();
    await broker.close();
  }
}

async function captureKafkajs(): Promise<CapturedFrame[]> {
  const broker = await FakeBroker.start();
  try {
    await produceWithKafkajs(broker.port, GOLDEN_TOPIC);
    await broker.waitForFrame((frame) => frame.apiKey === 0, DEADLINE_MS);
    return broker.frames;
  } finally {
    await broker.close();
  }
}

async function main(): Promise<void> {
  const directory = fileURLToPath(FIXTURES);
  mkdirSync(directory, { recursive: true });
  for (const file of readdirSync(directory)) {
    if (file.endsWith(".hex") || file.endsWith(".json")) rmSync(new URL(file, FIXTURES));
  }
  writeFixtures("kcat", await captureKcat());
  writeFixtures("kafkajs", await captureKafkajs());
}

await main();
