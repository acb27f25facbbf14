import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Uuid } from "./ids.js";
import {
  ONE_UUID,
  ZERO_UUID,
  uuidFromBase64,
  uuidFromBytes,
  uuidFromRandomBytes,
  uuidToBase64,
  uuidToBytes,
} from "./uuid.js";

test("a Uuid prints as Kafka prints it: 22 characters of URL-safe base64", () => {
  assert.equal(uuidToBase64("00112233445566778899aabbccddeeff" as Uuid), "ABEiM0RVZneImaq7zN3u_w");
  assert.equal(uuidToBase64(ZERO_UUID), "AAAAAAAAAAAAAAAAAAAAAA");
  assert.equal(uuidToBase64(ONE_UUID), "AAAAAAAAAAAAAAAAAAAAAQ");
  assert.equal(uuidToBase64("fbffbfefbeffffffffffffffffffffff" as Uuid), "-_-_777______________w");
});

test("a Kafka cluster id parses back to its 16 bytes", () => {
  assert.equal(uuidFromBase64("Dz1DTnH3T0WL3dxJgZCkvg"), "0f3d434e71f74f458bdddc498190a4be");
  assert.equal(uuidFromBase64("ABEiM0RVZneImaq7zN3u_w"), "00112233445566778899aabbccddeeff");
});

test("base64 parsing is strict about length, alphabet and unused bits", () => {
  assert.equal(uuidFromBase64("ABEiM0RVZneImaq7zN3u_w=="), undefined);
  assert.equal(uuidFromBase64("ABEiM0RVZneImaq7zN3u_"), undefined);
  assert.equal(uuidFromBase64("ABEiM0RVZneImaq7zN3u/w"), undefined);
  assert.equal(uuidFromBase64("ABEiM0RVZneImaq7zN3u+w"), undefined);
  // "x" sets low bits that 16 bytes cannot carry.
  assert.equal(uuidFromBase64("ABEiM0RVZneImaq7zN3u_x"), undefined);
});

test("bytes, hex and base64 forms round-trip", () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
      const uuid = uuidFromBytes(bytes);
      assert.deepEqual(uuidToBytes(uuid), bytes);
      assert.equal(uuidFromBase64(uuidToBase64(uuid)), uuid);
    }),
    { seed: 42 },
  );
});

test("a random Uuid has version 4, the IETF variant, and never starts with a dash", () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
      const uuid = uuidFromRandomBytes(bytes);
      if (uuid === undefined) {
        const stamped = Uint8Array.from(bytes);
        stamped[6] = ((stamped[6] as number) & 0x0f) | 0x40;
        stamped[8] = ((stamped[8] as number) & 0x3f) | 0x80;
        assert.ok(uuidToBase64(uuidFromBytes(stamped)).startsWith("-"));
        return;
      }
      assert.equal(uuid[12], "4");
      assert.ok("89ab".includes(uuid[16] as string));
      assert.ok(!uuidToBase64(uuid).startsWith("-"));
    }),
    { seed: 7 },
  );
  assert.equal(uuidFromRandomBytes(new Uint8Array(16).fill(0xf8)), undefined);
});
