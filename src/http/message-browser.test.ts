import { test } from "node:test";
import assert from "node:assert/strict";
import { BROWSE_BYTES_MAX, browseJson, parseBrowseQuery } from "./message-browser.js";

test("a browse needs a topic; by default partition 0 from the log start, 20, as text", () => {
  assert.deepEqual(parseBrowseQuery({ topic: "orders" }), {
    kind: "ok",
    request: {
      topic: "orders",
      partition: 0,
      start: { kind: "earliest" },
      maxRecords: 20,
      maxBytes: BROWSE_BYTES_MAX,
    },
    format: "text",
  });
});

test("a browse starts from an offset or a timestamp, not both", () => {
  const from = (query: Record<string, string>) => {
    const parsed = parseBrowseQuery({ topic: "t", ...query });
    return parsed.kind === "ok" ? parsed.request.start : parsed.message;
  };
  assert.deepEqual(from({ offset: "42" }), { kind: "offset", offset: 42 });
  assert.deepEqual(from({ timestamp: "1700000000000" }), {
    kind: "timestamp",
    timestamp: 1700000000000,
  });
  assert.equal(from({ offset: "1", timestamp: "2" }), "give an offset or a timestamp, not both");
  assert.deepEqual(from({ offset: "" }), { kind: "earliest" });
});

test("what is not a whole number, a known format or within the limits is refused", () => {
  const refusal = (query: Record<string, string>) => {
    const parsed = parseBrowseQuery(query);
    return parsed.kind === "bad" ? parsed.message : "accepted";
  };
  assert.equal(refusal({}), "topic is required");
  assert.equal(refusal({ topic: "t".repeat(250) }), "topic is longer than a topic name can be");
  for (const partition of ["-1", "1.5", "x", "2147483648", "99999999999999999"]) {
    assert.equal(refusal({ topic: "t", partition }), "partition must be a partition index");
  }
  for (const offset of ["-1", "1e3", "0x10", " 1"]) {
    assert.equal(refusal({ topic: "t", offset }), "offset must be a whole number");
  }
  assert.equal(
    refusal({ topic: "t", timestamp: "yesterday" }),
    "timestamp must be milliseconds since the epoch",
  );
  assert.equal(refusal({ topic: "t", limit: "0" }), "limit must be from 1 to 100");
  assert.equal(refusal({ topic: "t", limit: "101" }), "limit must be from 1 to 100");
  assert.equal(refusal({ topic: "t", limit: "100" }), "accepted");
  assert.equal(refusal({ topic: "t", format: "xml" }), "format must be one of text, json, hex");
});

test("the JSON names the next offset to read, after the last record or at the start", () => {
  const parsed = parseBrowseQuery({ topic: "t", format: "hex" });
  assert.ok(parsed.kind === "ok");
  const result = {
    kind: "records" as const,
    startOffset: 7,
    logStartOffset: 2,
    highWatermark: 9,
    records: [{ offset: 8, timestamp: 5, key: null, value: new Uint8Array([1, 2]), headers: [] }],
  };
  const json = browseJson(parsed.request, result, "hex") as Record<string, unknown>;
  assert.equal(json["nextOffset"], 9);
  assert.deepEqual(json["records"], [
    {
      offset: 8,
      timestamp: 5,
      key: null,
      value: { format: "hex", text: "01 02", sizeBytes: 2, isTruncated: false },
      headers: [],
    },
  ]);
  const empty = browseJson(parsed.request, { ...result, records: [] }, "hex");
  assert.equal((empty as Record<string, unknown>)["nextOffset"], 7);
});
