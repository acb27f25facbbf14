import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCommandOptions } from "./command-options.js";
import { consumerSettings, formatRecord } from "./consume-settings.js";
import { producerSettings } from "./produce-settings.js";
import { parseReplicaAssignment } from "./topic-alter.js";
import { CommandFailure } from "./cluster-session.js";

const PRODUCE_SPEC = {
  booleans: [],
  values: ["--acks", "--compression", "--key-separator", "--partition", "--batch-size"],
  repeatable: ["--property"],
};
const CONSUME_SPEC = {
  booleans: ["--from-beginning"],
  values: ["--partition", "--offset", "--max-messages"],
  repeatable: ["--property"],
};

function produceLine(args: string[]) {
  const parsed = parseCommandOptions(args, PRODUCE_SPEC);
  return parsed.kind === "ok" ? producerSettings(parsed) : parsed;
}

function consumeLine(args: string[]) {
  const parsed = parseCommandOptions(args, CONSUME_SPEC);
  return parsed.kind === "ok" ? consumerSettings(parsed) : parsed;
}

test("produce reads the console producer's properties and refuses what it cannot do", () => {
  const keyed = produceLine(["t", "--property", "parse.key=true", "--property", "key.separator=:"]);
  assert.equal(keyed.kind === "ok" && keyed.keySeparator, ":");
  const tabbed = produceLine(["t", "--property", "parse.key=true"]);
  assert.equal(tabbed.kind === "ok" && tabbed.keySeparator, "\t");
  const plain = produceLine(["t"]);
  assert.equal(plain.kind === "ok" && plain.keySeparator, undefined);
  assert.equal(plain.kind === "ok" && plain.acks, -1);
  assert.equal(produceLine(["t", "--acks", "0"]).kind, "usage");
  assert.equal(produceLine(["t", "--compression", "brotli"]).kind, "usage");
  assert.equal(produceLine(["t", "--property", "no.such=1"]).kind, "usage");
  assert.equal(produceLine(["t", "--partition=-1"]).kind, "usage");
  assert.equal(produceLine(["t", "--batch-size", "100000"]).kind, "usage");
  assert.equal(produceLine([]).kind, "usage");
});

test("consume refuses --offset without --partition, and with --from-beginning", () => {
  assert.equal(consumeLine(["t", "--offset", "3"]).kind, "usage");
  assert.equal(
    consumeLine(["t", "--partition", "0", "--offset", "3", "--from-beginning"]).kind,
    "usage",
  );
  const earliest = consumeLine(["t", "--partition", "0", "--offset", "earliest"]);
  assert.equal(earliest.kind === "ok" && earliest.offset, "earliest");
  assert.equal(consumeLine(["t", "--partition", "0", "--offset", "x"]).kind, "usage");
  assert.equal(consumeLine(["t", "--max-messages", "0"]).kind, "usage");
});

test("a record prints in the formatter's order of fields", () => {
  const args = ["t", "--property", "print.key=true", "--property", "print.offset=true"];
  const settings = consumeLine([...args, "--property", "print.partition=true"]);
  assert.equal(settings.kind, "ok");
  if (settings.kind !== "ok") return;
  const encode = (text: string) => new TextEncoder().encode(text);
  const record = { offset: 7, timestamp: 5, key: encode("k"), value: null, headers: [] };
  const line = formatRecord(settings, { partition: 2, record, timestampType: "createTime" });
  assert.equal(line, "Partition:2\tOffset:7\tk\tnull");
});

test("a replica assignment lists each partition's brokers", () => {
  assert.deepEqual(parseReplicaAssignment("1:2,2:3,3:1"), [
    [1, 2],
    [2, 3],
    [3, 1],
  ]);
  assert.throws(() => parseReplicaAssignment("1:1"), CommandFailure);
  assert.throws(() => parseReplicaAssignment("1:x"), CommandFailure);
  assert.throws(() => parseReplicaAssignment("1,,2"), CommandFailure);
});
