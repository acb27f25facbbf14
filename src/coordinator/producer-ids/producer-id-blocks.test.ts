import { test } from "node:test";
import assert from "node:assert/strict";
import { ProducerIdBlocks, RETRY_BACKOFF_MS } from "./producer-id-blocks.js";

test("no id before the first block; the first claim asks for one, once", () => {
  const blocks = new ProducerIdBlocks();
  assert.deepEqual(blocks.claim(0), { producerId: undefined, shouldRequestBlock: true });
  assert.deepEqual(blocks.claim(1), { producerId: undefined, shouldRequestBlock: false });
  blocks.onAnswer({ kind: "block", start: 3000, length: 1000 }, 2);
  assert.deepEqual(blocks.claim(3), { producerId: 3000, shouldRequestBlock: false });
});

test("the next block is asked for at 90% of the current one and taken when it runs out", () => {
  const blocks = new ProducerIdBlocks();
  blocks.claim(0);
  blocks.onAnswer({ kind: "block", start: 0, length: 10 }, 0);
  const claims = Array.from({ length: 10 }, () => blocks.claim(1));
  assert.deepEqual(
    claims.map((claim) => claim.producerId),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  assert.deepEqual(
    claims.flatMap((claim, index) => (claim.shouldRequestBlock ? [index] : [])),
    [9],
    "the request goes out at id start + 90% of the length",
  );
  assert.equal(blocks.claim(2).producerId, undefined, "the next block has not come yet");
  blocks.onAnswer({ kind: "block", start: 10, length: 10 }, 3);
  assert.equal(blocks.claim(4).producerId, 10);
});

test("a refused request is sent again only after the backoff", () => {
  const blocks = new ProducerIdBlocks();
  blocks.claim(0);
  blocks.onAnswer({ kind: "error", errorCode: 68 }, 100);
  assert.equal(blocks.claim(100 + RETRY_BACKOFF_MS - 1).shouldRequestBlock, false);
  assert.equal(blocks.claim(100 + RETRY_BACKOFF_MS).shouldRequestBlock, true);
});

test("a block below the current one or empty is refused", () => {
  const blocks = new ProducerIdBlocks();
  blocks.claim(0);
  blocks.onAnswer({ kind: "block", start: 1000, length: 1000 }, 0);
  blocks.claim(1);
  blocks.onAnswer({ kind: "block", start: 0, length: 1000 }, 1);
  blocks.onAnswer({ kind: "block", start: 5000, length: 0 }, 1);
  for (let index = 1; index < 1000; index++) blocks.claim(1000);
  assert.equal(blocks.claim(1000).producerId, undefined, "no bad block was taken");
});
