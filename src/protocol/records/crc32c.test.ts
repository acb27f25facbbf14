import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { crc32c } from "./crc32c.js";
import { crc32cTable } from "./crc32c-table.js";

const checkInput = new TextEncoder().encode("123456789");

test("CRC-32C of the standard check input 123456789 is 0xE3069283, native and table", () => {
  assert.equal(crc32c(checkInput), 0xe3069283);
  assert.equal(crc32cTable(checkInput), 0xe3069283);
});

test("CRC-32C of no bytes is zero", () => {
  assert.equal(crc32c(new Uint8Array(0)), 0);
  assert.equal(crc32cTable(new Uint8Array(0)), 0);
});

test("CRC-32C of 32 zero bytes is the RFC 3720 test vector 0x8A9136AA", () => {
  assert.equal(crc32c(new Uint8Array(32)), 0x8a9136aa);
  assert.equal(crc32cTable(new Uint8Array(32)), 0x8a9136aa);
});

test("the native CRC-32C equals the table oracle on any bytes, views and continuations", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 2048 }),
      fc.nat(16),
      fc.nat(2048),
      (bytes, skip, split) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        assert.equal(crc32c(view), crc32cTable(view));
        const at = Math.min(split, view.length);
        const continued = crc32c(view.subarray(at), crc32c(view.subarray(0, at)));
        assert.equal(continued, crc32cTable(view));
      },
    ),
    { seed: 20240602, numRuns: 300 },
  );
});
