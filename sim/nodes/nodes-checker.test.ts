import { test } from "node:test";
import assert from "node:assert/strict";
import { History, partitionKey } from "./history.js";
import { checkHistory } from "./nodes-checker.js";

const P0 = partitionKey("events", 0);

function historyOf(acks: 1 | -1): History {
  const history = new History();
  for (const [index, value] of ["a", "b", "c"].entries()) {
    history.record({ kind: "invoke", client: "p", partition: P0, value, acks, atMs: index });
    history.record({ kind: "ok", client: "p", value, offset: index, atMs: index });
  }
  return history;
}

const whole = [
  { offset: 0, value: "a" },
  { offset: 1, value: "b" },
  { offset: 2, value: "c" },
];

test("a history whose acknowledged writes are all in the log passes", () => {
  const report = checkHistory(historyOf(-1), new Map([[P0, whole]]));
  assert.equal(report.acknowledged, 3);
});

test("an acks=all write missing from the log is a lost write (P1); an acks=1 one is not", () => {
  const shorter = new Map([[P0, whole.slice(0, 2)]]);
  assert.throws(() => checkHistory(historyOf(-1), shorter), /P1: acks=all write c/);
  assert.doesNotThrow(() => checkHistory(historyOf(1), shorter));
});

test("a value twice in the log (P2) and a gap in the offsets (P3) are violations", () => {
  const twice = [...whole, { offset: 3, value: "a" }];
  assert.throws(() => checkHistory(historyOf(1), new Map([[P0, twice]])), /P2: a is twice/);
  const gap = [whole[0], { offset: 2, value: "c" }].flatMap((record) => record ?? []);
  assert.throws(() => checkHistory(historyOf(1), new Map([[P0, gap]])), /P3/);
});

test("a record shown to a reader must stay at its offset (P5)", () => {
  const history = historyOf(1);
  const records = [{ offset: 1, value: "x" }];
  history.record({ kind: "read", client: "r", partition: P0, records, highWatermark: 2, atMs: 9 });
  assert.throws(() => checkHistory(history, new Map([[P0, whole]])), /P5: r at 9 ms read x/);
});

test("a write that surely failed must never be visible (P12)", () => {
  const history = new History();
  history.record({ kind: "invoke", client: "p", partition: P0, value: "a", acks: -1, atMs: 0 });
  history.record({ kind: "fail", client: "p", value: "a", reason: "error 19", atMs: 1 });
  const log = new Map([[P0, whole.slice(0, 1)]]);
  assert.throws(() => checkHistory(history, log), /P12: a failed/);
});

test("a group offset read after a newer commit was acknowledged went back (P13)", () => {
  const history = new History();
  const commit = { kind: "commit", client: "c", group: "g" } as const;
  history.record({ ...commit, offset: 5, invokedAtMs: 1, atMs: 2 });
  const read = { kind: "offset", client: "c", group: "g", invokedAtMs: 3, atMs: 4 } as const;
  history.record({ ...read, offset: 5 });
  assert.doesNotThrow(() => checkHistory(history, new Map()));
  history.record({ ...read, offset: 4 });
  assert.throws(() => checkHistory(history, new Map()), /P13: c read offset 4 of group g/);
});

test("two leaders named for one leader epoch of a partition are a violation (P6)", () => {
  const history = new History();
  const answer = (nodeId: number, leader: number) =>
    history.record({
      kind: "metadata",
      client: "r",
      nodeId,
      brokers: [1, 2, 3],
      partitions: [{ partition: P0, leader, leaderEpoch: 4, isr: [1, 2, 3] }],
      atMs: nodeId,
    });
  answer(1, 2);
  answer(2, 2);
  assert.doesNotThrow(() => checkHistory(history, new Map()));
  answer(3, 3);
  assert.throws(() => checkHistory(history, new Map()), /P6: node 3 names 3 leader/);
});
