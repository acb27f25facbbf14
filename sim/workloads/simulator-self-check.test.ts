import { test } from "node:test";
import assert from "node:assert/strict";
import { findWorkload, registeredWorkloads } from "./index.js";
import { logByte, SelfCheckState, streamByte } from "./self-check-state.js";
import { simulatorSelfCheck } from "./simulator-self-check.js";

test("the self-check workload is registered and passes on a range of seeds", async () => {
  assert.equal(findWorkload("simulator"), simulatorSelfCheck);
  assert.ok(registeredWorkloads().includes(simulatorSelfCheck));
  for (let seed = 1; seed <= 2; seed++) {
    const outcome = await simulatorSelfCheck.run(seed);
    assert.equal(outcome.kind, "passed", outcome.kind === "failed" ? outcome.reason : "");
  }
});

test("a whole run replays exactly from its seed and another seed runs differently", async () => {
  const first = await simulatorSelfCheck.run(77);
  const again = await simulatorSelfCheck.run(77);
  const other = await simulatorSelfCheck.run(78);
  assert.equal(first.traceHash, again.traceHash);
  assert.notEqual(first.traceHash, other.traceHash);
});

test("the checker flags a message that was never sent or arrived from the wrong node", () => {
  const checker = new SelfCheckState();
  checker.messageSent("m1", "n1", "n2");
  checker.messageDelivered("m1", "n1", "n2");
  assert.equal(checker.hasFailed, false);
  checker.messageDelivered("m2", "n1", "n2");
  checker.messageDelivered("m1", "n3", "n2");
  assert.equal(checker.violations.length, 2);
});

test("the checker flags lost or changed synced bytes and a checkpoint going back", () => {
  const log = Uint8Array.from({ length: 10 }, (_, position) => logByte("n1", position));
  const intact = new SelfCheckState();
  intact.checkpointAcknowledged("n1", 8);
  intact.checkRecovery("n1", 8, log);
  assert.equal(intact.hasFailed, false);
  const behind = new SelfCheckState();
  behind.checkpointAcknowledged("n1", 9);
  behind.checkRecovery("n1", 8, log);
  const short = new SelfCheckState();
  short.checkRecovery("n1", 8, log.subarray(0, 7));
  const changed = new SelfCheckState();
  const corrupt = log.slice();
  corrupt[3] = (corrupt[3] ?? 0) ^ 1;
  changed.checkRecovery("n1", 8, corrupt);
  for (const checker of [behind, short, changed]) assert.equal(checker.violations.length, 1);
});

test("the checker flags stream bytes that are corrupt or were never written", () => {
  const checker = new SelfCheckState();
  const stream = checker.newStream();
  checker.streamSent(stream, 4);
  checker.streamReceived(stream, 0, Uint8Array.of(streamByte(stream, 0), streamByte(stream, 1)));
  assert.equal(checker.hasFailed, false);
  checker.streamReceived(stream, 2, Uint8Array.of(streamByte(stream, 2) ^ 1));
  checker.streamReceived(stream, 3, Uint8Array.of(streamByte(stream, 3), streamByte(stream, 4)));
  checker.streamReceived(99, 0, Uint8Array.of(0));
  assert.equal(checker.violations.length, 3);
});
