import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { hexOf, renderBytes, textOf } from "./value-rendering.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const shown = { shownBytesMax: 4096 };

test("text is UTF-8, with its size in bytes", () => {
  assert.deepEqual(renderBytes(bytes("café ☕"), { format: "text", ...shown }), {
    format: "text",
    text: "café ☕",
    sizeBytes: 9,
    isTruncated: false,
  });
});

test("JSON is parsed and indented; text that is not JSON stays text and says so", () => {
  const json = renderBytes(bytes('{"id":1,"tags":["a"]}'), { format: "json", ...shown });
  assert.equal(json?.format, "json");
  assert.equal(json?.text, '{\n  "id": 1,\n  "tags": [\n    "a"\n  ]\n}');
  const plain = renderBytes(bytes("{not json"), { format: "json", ...shown });
  assert.deepEqual([plain?.format, plain?.text], ["text", "{not json"]);
});

test("hex is lower-case byte pairs; bytes that are not UTF-8 fall back to hex", () => {
  const raw = new Uint8Array([0x00, 0x0f, 0xab, 0xff]);
  assert.equal(renderBytes(raw, { format: "hex", ...shown })?.text, "00 0f ab ff");
  for (const format of ["text", "json"] as const) {
    const rendered = renderBytes(raw.subarray(2), { format, ...shown });
    assert.deepEqual([rendered?.format, rendered?.text], ["hex", "ab ff"]);
  }
});

test("a null key, value or header value stays null; empty bytes are empty text", () => {
  assert.equal(renderBytes(null, { format: "json", ...shown }), null);
  assert.deepEqual(renderBytes(new Uint8Array(0), { format: "json", ...shown }), {
    format: "text",
    text: "",
    sizeBytes: 0,
    isTruncated: false,
  });
});

test("only the first bytes of a large field are rendered, and it says so", () => {
  const value = bytes(JSON.stringify({ padding: "x".repeat(100) }));
  const rendered = renderBytes(value, { format: "json", shownBytesMax: 10 });
  // A cut JSON text is no longer JSON: it is shown as the text it is.
  assert.deepEqual(rendered, {
    format: "text",
    text: '{"padding"',
    sizeBytes: value.length,
    isTruncated: true,
  });
  // A cut inside a UTF-8 sequence is not text: hex shows exactly the bytes.
  const cut = renderBytes(bytes("ééé"), { format: "text", shownBytesMax: 3 });
  assert.deepEqual([cut?.format, cut?.text, cut?.isTruncated], ["hex", "c3 a9 c3", true]);
});

test("hex and text round-trip any bytes and any string", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (raw) => {
      const pairs = hexOf(raw)
        .split(" ")
        .filter((pair) => pair !== "");
      assert.deepEqual(new Uint8Array(pairs.map((pair) => parseInt(pair, 16))), raw);
    }),
  );
  fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => textOf(bytes(text)) === text));
});
