import { test } from "node:test";
import assert from "node:assert/strict";
import type { MetricsSink } from "../ports/index.js";
import type { RaftOutput } from "./output.js";
import type { RaftDriverStatus } from "./raft-driver-options.js";
import { RaftMetrics } from "./raft-metrics.js";

/** A sink that keeps counter totals and histogram observations by name. */
function recordingSink() {
  const totals = new Map<string, number>();
  const observed = new Map<string, number[]>();
  const sink: MetricsSink = {
    counter: (name) => ({
      inc: (amount = 1) => totals.set(name, (totals.get(name) ?? 0) + amount),
    }),
    gauge: () => ({ set: () => undefined }),
    histogram: (name) => ({
      observe: (value) => observed.set(name, [...(observed.get(name) ?? []), value]),
    }),
  };
  return { sink, totals, observed };
}

/** A v2 batch header of `count` records (only its last offset delta is read). */
function batchOf(count: number): Uint8Array {
  const bytes = new Uint8Array(61);
  new DataView(bytes.buffer).setInt32(23, count - 1);
  return bytes;
}

function output(fields: Partial<RaftOutput>): RaftOutput {
  return {
    ...{ quorumState: null, truncateTo: null, append: null, snapshotActions: [], send: [] },
    ...{ highWatermark: null, leaderChanged: null, wakeupAtMs: 0 },
    ...fields,
  };
}

function status(role: RaftDriverStatus["role"], leaderId: number | null): RaftDriverStatus {
  return {
    ...{ role, epoch: 1, leaderId, highWatermark: null, logStartOffset: 0, logEndOffset: 0 },
    ...{ flushCount: 0, deliveredEndOffset: 0, voterIds: [1, 2, 3] },
  };
}

const RAFT = "kafka_server_raftmetrics";

test("a leader's appends count and each is committed once the high watermark passes it", () => {
  const { sink, totals, observed } = recordingSink();
  const metrics = new RaftMetrics(sink);
  const leader = status("leader", 1);
  metrics.observe(output({ append: { batches: [batchOf(3)], endOffset: 3 } }), leader, 100);
  metrics.observe(output({ append: { batches: [batchOf(2)], endOffset: 5 } }), leader, 110);
  metrics.observe(output({ highWatermark: 3 }), leader, 125);
  assert.deepEqual(observed.get(`${RAFT}_commit_latency_ms`), [25]);
  metrics.observe(output({ highWatermark: 5 }), leader, 150);
  assert.deepEqual(observed.get(`${RAFT}_commit_latency_ms`), [25, 40]);
  assert.equal(totals.get(`${RAFT}_append_records_total`), 5);
  assert.equal(totals.get(`${RAFT}_fetch_records_total`), undefined);
});

test("a follower's appends are fetched records and never commit latencies", () => {
  const { sink, totals, observed } = recordingSink();
  const metrics = new RaftMetrics(sink);
  const follower = status("follower", 2);
  const fetched = { append: { batches: [batchOf(4), batchOf(1)], endOffset: 5 }, highWatermark: 5 };
  metrics.observe(output(fetched), follower, 100);
  assert.equal(totals.get(`${RAFT}_fetch_records_total`), 5);
  assert.equal(totals.get(`${RAFT}_append_records_total`), undefined);
  assert.equal(observed.get(`${RAFT}_commit_latency_ms`), undefined);
});

test("an election is timed from the candidacy to a known leader", () => {
  const { sink, observed } = recordingSink();
  const metrics = new RaftMetrics(sink);
  metrics.observe(output({}), status("follower", 2), 0);
  metrics.observe(output({}), status("prospective", null), 1000);
  metrics.observe(output({}), status("candidate", null), 1200);
  metrics.observe(output({}), status("leader", 1), 1450);
  metrics.observe(output({}), status("leader", 1), 2000);
  assert.deepEqual(observed.get(`${RAFT}_election_latency_ms`), [450]);
  metrics.observe(output({}), status("resigned", 1), 3000);
  metrics.observe(output({}), status("leader", 1), 3010);
  assert.deepEqual(observed.get(`${RAFT}_election_latency_ms`), [450, 0], "won within one step");
});
