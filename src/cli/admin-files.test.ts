import { test } from "node:test";
import assert from "node:assert/strict";
import { CommandFailure } from "./cluster-session.js";
import { parseAddConfig } from "./configs-entity.js";
import { parseDatetime } from "./groups-reset.js";
import {
  parseBrokerList,
  parseReassignmentFile,
  parseTopicsFile,
  proposeReassignment,
  reassignmentJson,
} from "./reassign-plan.js";

test("--add-config splits at commas outside brackets and drops the brackets", () => {
  assert.deepEqual(parseAddConfig("retention.ms=1000, cleanup.policy=[compact,delete],x.y="), [
    { name: "retention.ms", value: "1000" },
    { name: "cleanup.policy", value: "compact,delete" },
    { name: "x.y", value: "" },
  ]);
  assert.throws(() => parseAddConfig("retention.ms"), CommandFailure);
  assert.throws(() => parseAddConfig("bad key=1"), CommandFailure);
});

test("--to-datetime reads Kafka's format with and without a zone", () => {
  assert.equal(parseDatetime("2024-05-01T12:00:00.000Z"), Date.UTC(2024, 4, 1, 12));
  assert.equal(parseDatetime("2024-05-01T14:00:00.000+02:00"), Date.UTC(2024, 4, 1, 12));
  assert.equal(parseDatetime("2024-05-01T14:00:00+0200"), Date.UTC(2024, 4, 1, 12));
  assert.equal(parseDatetime("2024-05-01T12:00:00"), new Date(2024, 4, 1, 12).getTime());
  for (const text of ["yesterday", "2024-05-01", "2024-13-01T00:00:00Z"]) {
    assert.throws(() => parseDatetime(text), CommandFailure, text);
  }
});

test("reassignment files are read as Kafka's tool writes them, and refused when wrong", () => {
  const file = {
    version: 1,
    partitions: [{ topic: "t", partition: 1, replicas: [2, 3], log_dirs: ["any", "any"] }],
  };
  assert.deepEqual(parseReassignmentFile(file, "f"), [
    { topic: "t", partition: 1, replicas: [2, 3] },
  ]);
  const wrong = [
    {},
    { partitions: [] },
    { partitions: [{ topic: "t", partition: 0, replicas: [1, 1] }] },
    { partitions: [{ topic: "t", partition: 0, replicas: ["1"] }] },
    { partitions: [{ topic: "t", partition: 0, replicas: [1], log_dirs: ["/data"] }] },
    {
      partitions: [
        { topic: "t", partition: 0, replicas: [1] },
        { topic: "t", partition: 0, replicas: [2] },
      ],
    },
  ];
  for (const json of wrong) assert.throws(() => parseReassignmentFile(json, "f"), CommandFailure);
  assert.deepEqual(parseTopicsFile({ topics: [{ topic: "a" }, { topic: "a" }] }, "f"), ["a"]);
  assert.throws(() => parseTopicsFile({ topics: [{}] }, "f"), CommandFailure);
});

test("a proposal keeps each replication factor and spreads replicas over the brokers", () => {
  const current = [
    { topic: "t", partition: 0, replicas: [1, 2] },
    { topic: "t", partition: 1, replicas: [1, 2] },
    { topic: "t", partition: 2, replicas: [2, 1] },
  ];
  const proposed = proposeReassignment(current, parseBrokerList("4,5,6"));
  assert.deepEqual(
    proposed.map((entry) => entry.replicas),
    [
      [4, 5],
      [5, 6],
      [6, 4],
    ],
  );
  assert.deepEqual(reassignmentJson(proposed).partitions[0], {
    topic: "t",
    partition: 0,
    replicas: [4, 5],
    log_dirs: ["any", "any"],
  });
  assert.throws(() => proposeReassignment(current, [4]), CommandFailure);
  assert.throws(() => parseBrokerList("1,1"), CommandFailure);
  assert.throws(() => parseBrokerList("1,x"), CommandFailure);
});
