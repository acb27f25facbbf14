/**
 * librdkafka (kcat) against a Sluice node: keyed messages produced with every compression codec
 * come back from the beginning of the topic, every key and value, in order (`kcat -C -o
 * beginning -e`, without a group); a consumer asking for an offset past the log end is answered
 * OFFSET_OUT_OF_RANGE in a form librdkafka reads, and applies its auto.offset.reset.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { SluiceProcess } from "./sluice-process.js";
import { recordCompatibility } from "./compatibility-record.js";

const run = promisify(execFile);
const CODECS = ["none", "gzip", "snappy", "lz4", "zstd"] as const;
const MESSAGES_PER_CODEC = 200;

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
});

after(async () => {
  await recordCompatibility(node, "kcat (librdkafka)");
  await node.destroy();
});

/** Keyed messages "key-i=codec value i", with a few keys repeated and one empty value. */
function messagesOf(codec: string): string[] {
  return Array.from({ length: MESSAGES_PER_CODEC }, (_, index) =>
    index === 7 ? `key-${index % 13}=` : `key-${index % 13}=${codec} value ${index}`,
  );
}

/** Runs kcat with `args`, feeding `input` on stdin. */
async function kcat(args: readonly string[], input?: string): Promise<string> {
  const child = run("kcat", [...args], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  if (input !== undefined) {
    child.child.stdin?.end(input);
  }
  const { stdout } = await child;
  return stdout;
}

for (const codec of CODECS) {
  test(`kcat produces keyed messages with ${codec} and consumes them back in order`, async () => {
    const topic = `kcat-${codec}`;
    const messages = messagesOf(codec);
    await kcat(
      ["-P", "-b", node.bootstrap, "-t", topic, "-K", "=", "-z", codec, "-X", "acks=all"],
      `${messages.join("\n")}\n`,
    );
    const consumed = await kcat([
      "-C",
      "-b",
      node.bootstrap,
      "-t",
      topic,
      "-o",
      "beginning",
      "-e",
      "-f",
      "%k=%s\\n",
    ]);
    const lines = consumed.split("\n");
    assert.equal(lines.pop(), "", "the output ends with a newline");
    assert.deepEqual(lines, messages);
  });
}

test("kcat asking past the log end resets to the earliest or latest offset", async () => {
  const topic = "kcat-reset";
  await kcat(["-P", "-b", node.bootstrap, "-t", topic, "-X", "acks=all"], "one\ntwo\nthree\n");
  const consume = (reset: string, extra: readonly string[]) =>
    kcat(
      ["-C", "-b", node.bootstrap, "-t", topic, "-p", "0", "-o", "1000", "-q"].concat([
        "-X",
        `auto.offset.reset=${reset}`,
        "-f",
        "%s\\n",
        ...extra,
      ]),
    );
  // librdkafka refused an error answer with null records, never reset, and read nothing.
  assert.equal(await consume("earliest", ["-c", "3"]), "one\ntwo\nthree\n");
  assert.equal(await consume("latest", ["-e"]), "");
});

test("kcat lists the metadata of every topic", async () => {
  await kcat(["-P", "-b", node.bootstrap, "-t", "kcat-listed", "-X", "acks=all"], "a\n");
  const listing = await kcat(["-L", "-b", node.bootstrap, "-J"]);
  const topics = (JSON.parse(listing) as { topics: { topic: string }[] }).topics;
  assert.ok(
    topics.some((topic) => topic.topic === "kcat-listed"),
    listing,
  );
});
