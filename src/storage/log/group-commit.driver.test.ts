import { test } from "node:test";
import assert from "node:assert/strict";
import { GroupCommit } from "./group-commit.driver.js";

/** A flush target whose fsyncs finish only when the test says so. */
function fakeTarget() {
  const rounds: { endOffset: number; finish: (error?: Error) => void }[] = [];
  const state = { written: 0, isWriting: false, backgroundFailures: 0 };
  const target = {
    writtenEndOffset: () => state.written,
    isWriting: () => state.isWriting,
    flushTo: (endOffset: number) =>
      new Promise<void>((resolve, reject) => {
        rounds.push({
          endOffset,
          finish: (error) => (error === undefined ? resolve() : reject(error)),
        });
      }),
    onBackgroundFailure: () => {
      state.backgroundFailures++;
    },
  };
  return { rounds, state, groupCommit: new GroupCommit(target, 0) };
}

const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
};

test("callers arriving during a flush share the next one", async () => {
  const { rounds, state, groupCommit } = fakeTarget();
  state.written = 1;
  const first = groupCommit.flushTo(1);
  state.written = 5;
  const second = groupCommit.flushTo(3);
  const third = groupCommit.flushTo(5);
  assert.equal(rounds.length, 1, "one flush at a time");
  rounds[0]?.finish();
  await first;
  await settle();
  assert.deepEqual(
    rounds.map((round) => round.endOffset),
    [1, 5],
  );
  rounds[1]?.finish();
  await Promise.all([second, third]);
  assert.equal(groupCommit.flushedOffset, 5);
  assert.equal(groupCommit.roundCount, 2);
});

test("a flush waits for the write under way, then covers it", async () => {
  const { rounds, state, groupCommit } = fakeTarget();
  state.written = 2;
  state.isWriting = true;
  const waiting = groupCommit.flushTo(2);
  assert.equal(rounds.length, 0);
  state.written = 4;
  state.isWriting = false;
  groupCommit.onWriteSettled();
  assert.equal(rounds[0]?.endOffset, 4);
  rounds[0]?.finish();
  await waiting;
});

test("a failed flush fails its waiters and every later caller", async () => {
  const { rounds, state, groupCommit } = fakeTarget();
  state.written = 3;
  const waiting = groupCommit.flushTo(3);
  rounds[0]?.finish(new Error("EIO"));
  await assert.rejects(waiting, /EIO/);
  await assert.rejects(groupCommit.flushTo(3), /EIO/);
  assert.equal(state.backgroundFailures, 0, "a failure someone waited for is theirs to report");
});

test("a truncation releases the waiters of offsets that no longer exist", async () => {
  const { rounds, state, groupCommit } = fakeTarget();
  state.written = 1;
  const first = groupCommit.flushTo(1);
  state.written = 9;
  const doomed = groupCommit.flushTo(9);
  const truncation = groupCommit.exclusive(async () => {
    groupCommit.truncatedTo(1);
  });
  rounds[0]?.finish();
  await Promise.all([first, doomed, truncation]);
  assert.equal(rounds.length, 1, "no flush ran for the truncated offsets");
});
