/** The checkers on small hand-made histories: each anomaly kind is found, a clean one is not. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { check } from "./checker.js";
import type { HistoryEvent } from "./history.js";

let time = 0;
const event = (fields: Omit<HistoryEvent, "time">): HistoryEvent => ({ time: time++, ...fields });
const sent = (value: string, offset: number) =>
  event({ process: "kcat-0", type: "ok", f: "send", partition: 0, value, offset });
const polled = (value: string, offset: number, process = "kafkajs-0") =>
  event({ process, type: "ok", f: "poll", partition: 0, value, offset });
const committed = (offset: number, process = "kafkajs-0") =>
  event({ process, type: "ok", f: "commit", partition: 0, offset });
const stored = (...values: string[]) =>
  new Map([[0, values.map((value, offset) => ({ offset, value }))]]);
const kinds = (anomalies: readonly { readonly kind: string }[]) => anomalies.map((a) => a.kind);

test("a clean history has no anomalies", () => {
  const history = [sent("0-0", 0), sent("0-1", 1), polled("0-0", 0), polled("0-1", 1)];
  assert.deepEqual(check([...history, committed(2)], stored("0-0", "0-1")), []);
});

test("an acknowledged value missing from the read-back is lost, one never polled is unseen", () => {
  const history = [sent("0-0", 0), sent("0-1", 1), polled("0-0", 0)];
  assert.deepEqual(kinds(check(history, stored("0-0"))), ["lost", "unseen"]);
});

test("two values at one offset and one value at two offsets are found", () => {
  const history = [sent("0-0", 0), polled("0-0", 0), polled("0-1", 0, "kafkajs-1")];
  const found = kinds(check(history, stored("0-0", "0-0")));
  assert.deepEqual(found, ["inconsistent-offset", "duplicate"]);
});

test("a poll that skips stored records or goes back is found, unless reassigned between", () => {
  const skip = [polled("0-0", 0), polled("0-2", 2)];
  assert.deepEqual(kinds(check(skip, stored("0-0", "0-1", "0-2"))), ["poll-skip"]);
  const back = [polled("0-0", 0), polled("0-1", 1), polled("0-0", 0)];
  assert.deepEqual(kinds(check(back, stored("0-0", "0-1"))), ["nonmonotonic-poll"]);
  const assign = event({ process: "kafkajs-0", type: "ok", f: "assign", partitions: [0] });
  assert.deepEqual(check([back[0]!, back[1]!, assign, back[2]!], stored("0-0", "0-1")), []);
});

test("acknowledgements whose offsets go back and commits that go back are found", () => {
  const history = [sent("0-1", 1), sent("0-0", 0), polled("0-0", 0), polled("0-1", 1)];
  assert.deepEqual(kinds(check(history, stored("0-0", "0-1"))), ["nonmonotonic-send"]);
  const commits = [committed(5), committed(3, "kafkajs-1")];
  assert.deepEqual(kinds(check(commits, stored())), ["commit-backwards"]);
});
