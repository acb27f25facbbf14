import { test } from "node:test";
import assert from "node:assert/strict";
import { linesOf, murmur2, partitionForKey } from "./record-routing.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

test("murmur2 hashes keys as Kafka's Utils.murmur2 does", () => {
  // The values of Kafka's own test of the partitioner's hash.
  const cases: [string, number][] = [
    ["21", -973932308],
    ["foobar", -790332482],
    ["a-little-bit-long-string", -985981536],
    ["a-little-bit-longer-string", -1486304829],
    ["lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971],
    ["abc", 479470107],
  ];
  for (const [key, hash] of cases) assert.equal(murmur2(bytes(key)), hash, key);
});

test("a key's partition is its positive hash modulo the partition count", () => {
  assert.equal(partitionForKey(bytes("foobar"), 7), (-790332482 & 0x7fffffff) % 7);
  assert.equal(partitionForKey(bytes("abc"), 1), 0);
});

test("lines are split across chunks, without their CR LF, the last one unterminated", async () => {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield bytes("a:1\r\nb:");
    yield bytes("2\n\nc");
    yield bytes(":3");
  }
  const lines: string[] = [];
  for await (const line of linesOf(chunks())) lines.push(line);
  assert.deepEqual(lines, ["a:1", "b:2", "", "c:3"]);
});
