/**
 * The KIP-890 guard at the partition log: a transactional batch that starts a transaction is
 * taken only with the guard of the verification under way; a marker written meanwhile ends the
 * verification, so its stale guard lets nothing in; while one is under way no batch above the
 * lowest sequence that asked may pass. Without a verification (the check is off) the batch is
 * taken as before.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { encodeTransactionMarkerBatch } from "../../src/protocol/index.js";
import { LogAppendError } from "../../src/storage/index.js";
import { clientBatch } from "../replication/fixtures.js";
import { LogHarness, testConfig } from "./log-harness.js";

const NOW_MS = 1_704_067_200_000;
const PRODUCER = 7;

function transactionalBatch(baseSequence: number) {
  const producer = { producerId: PRODUCER, producerEpoch: 0, baseSequence };
  return clientBatch([{ timestamp: NOW_MS }], { isTransactional: true, ...producer });
}

const abortMarker = encodeTransactionMarkerBatch({
  baseOffset: 0,
  partitionLeaderEpoch: -1,
  producerId: PRODUCER,
  producerEpoch: 0,
  coordinatorEpoch: 4,
  type: "abort",
  timestamp: NOW_MS,
});

function refusedWith(errorCode: number) {
  return (error: unknown) =>
    error instanceof LogAppendError &&
    error.refusal.kind === "producerRefused" &&
    error.refusal.errorCode === errorCode;
}

test("a transaction starts only with the guard of the verification under way", async () => {
  const harness = new LogHarness(31);
  const log = await harness.open(testConfig());
  const asked = { sequence: 0, epoch: 0, nowMs: NOW_MS };
  const append = (sequence: number, guard: ReturnType<typeof log.transactions.startVerification>) =>
    harness.run(
      log.appendAsLeader(transactionalBatch(sequence), { leaderEpoch: 1, verification: { guard } }),
    );

  await assert.rejects(append(0, undefined), refusedWith(ErrorCode.INVALID_TXN_STATE));
  const guard = log.transactions.startVerification(PRODUCER, asked);
  assert.ok(guard !== undefined);
  assert.equal(log.transactions.startVerification(PRODUCER, asked), guard, "one per producer");
  await assert.rejects(append(1, guard), refusedWith(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER));
  assert.equal((await append(0, guard)).firstOffset, 0);
  assert.equal(log.transactions.startVerification(PRODUCER, asked), undefined, "ongoing");
  assert.equal((await append(1, undefined)).firstOffset, 1, "an ongoing one needs no guard");

  // Verified, then aborted before the append: the stale guard lets nothing in.
  const stale = log.transactions.startVerification(PRODUCER, { ...asked, sequence: 2 });
  assert.equal(stale, undefined, "still ongoing until the marker");
  await harness.run(log.appendAsLeader(abortMarker, { leaderEpoch: 1, origin: "coordinator" }));
  const next = log.transactions.startVerification(PRODUCER, { ...asked, sequence: 2 });
  assert.ok(next !== undefined && next !== guard);
  await harness.run(log.appendAsLeader(abortMarker, { leaderEpoch: 1, origin: "coordinator" }));
  await assert.rejects(append(2, next), refusedWith(ErrorCode.INVALID_TXN_STATE));

  // Without a verification the check is off: the batch starts a transaction as before.
  const unchecked = await harness.run(
    log.appendAsLeader(transactionalBatch(2), { leaderEpoch: 1 }),
  );
  assert.equal(unchecked.firstOffset, 4);
});

test("a transactional offset commit by the coordinator needs the guard as well", async () => {
  const harness = new LogHarness(32);
  const log = await harness.open(testConfig());
  // The group coordinator writes offsets as the producer's batch without a sequence.
  const commit = transactionalBatch(-1);
  const asked = { sequence: -1, epoch: 0, nowMs: NOW_MS };
  const append = (guard: ReturnType<typeof log.transactions.startVerification>) =>
    harness.run(
      log.appendAsLeader(commit, {
        leaderEpoch: 1,
        origin: "coordinator",
        verification: { guard },
      }),
    );

  await assert.rejects(append(undefined), refusedWith(ErrorCode.INVALID_TXN_STATE));
  const guard = log.transactions.startVerification(PRODUCER, asked);
  assert.ok(guard !== undefined);
  assert.equal((await append(guard)).firstOffset, 0);
  assert.equal((await append(undefined)).firstOffset, 1, "a second commit of the transaction");
  // The end marker is the coordinator's too, and needs no guard.
  const marker = { ...{ leaderEpoch: 1, origin: "coordinator" as const }, verification: { guard } };
  assert.equal((await harness.run(log.appendAsLeader(abortMarker, marker))).firstOffset, 2);
});
