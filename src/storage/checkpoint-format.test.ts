import { test } from "node:test";
import assert from "node:assert/strict";
import { leaderEpoch, offset, partitionIndex } from "../common/index.js";
import {
  formatCheckpoint,
  leaderEpochCheckpointFormat,
  offsetCheckpointFormat,
  parseCheckpoint,
} from "./checkpoint-format.js";

const twoPartitions = [
  { topic: "orders", partition: partitionIndex(0), offset: offset(1234) },
  { topic: "__consumer_offsets", partition: partitionIndex(17), offset: offset(0) },
];

test("an offset checkpoint with two partitions is Kafka's text", () => {
  const text = formatCheckpoint(offsetCheckpointFormat, twoPartitions);
  assert.equal(text, "0\n2\norders 0 1234\n__consumer_offsets 17 0\n");
});

test("an offset checkpoint parses back", () => {
  const result = parseCheckpoint(
    offsetCheckpointFormat,
    "0\n2\norders 0 1234\n__consumer_offsets 17 0\n",
  );
  assert.deepEqual(result, { kind: "parsed", value: twoPartitions });
});

test("a leader-epoch-checkpoint is Kafka's text and parses back", () => {
  const entries = [
    { epoch: leaderEpoch(0), startOffset: offset(0) },
    { epoch: leaderEpoch(3), startOffset: offset(250) },
  ];
  const text = formatCheckpoint(leaderEpochCheckpointFormat, entries);
  assert.equal(text, "0\n2\n0 0\n3 250\n");
  assert.deepEqual(parseCheckpoint(leaderEpochCheckpointFormat, text), {
    kind: "parsed",
    value: entries,
  });
});

test("an empty text, or a version alone, holds no entries as Kafka reads it", () => {
  assert.deepEqual(parseCheckpoint(offsetCheckpointFormat, ""), { kind: "parsed", value: [] });
  assert.deepEqual(parseCheckpoint(offsetCheckpointFormat, "0\n"), { kind: "parsed", value: [] });
  assert.deepEqual(parseCheckpoint(offsetCheckpointFormat, "0\n0\n"), {
    kind: "parsed",
    value: [],
  });
});

test("malformed checkpoints are reported, not guessed at", () => {
  const cases = [
    "1\n0\n",
    "x\n0\n",
    "0\n-1\n",
    "0\n2\norders 0 5\n",
    "0\n1\norders 0 5\nextra 1 2\n",
    "0\n1\norders 0\n",
    "0\n1\norders zero 5\n",
    "0\n1\norders 0 5 6\n",
    "0\n1\n\n",
    "0\n1\norders 0 99999999999999999999\n",
  ];
  for (const text of cases) {
    assert.equal(
      parseCheckpoint(offsetCheckpointFormat, text).kind,
      "malformed",
      JSON.stringify(text),
    );
  }
});

test("lines split on any whitespace and tolerate CRLF endings", () => {
  const result = parseCheckpoint(leaderEpochCheckpointFormat, "0\r\n1\r\n4\t\t100\r\n");
  assert.deepEqual(result, { kind: "parsed", value: [{ epoch: 4, startOffset: 100 }] });
});
