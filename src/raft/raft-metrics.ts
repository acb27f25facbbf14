/**
 * Kafka's raft-metrics that count what the node does over time (KafkaRaftMetrics), from the
 * outputs the driver applies: the records the leader appends (append-records-rate) and those a
 * follower fetches (fetch-records-rate) as counters; how long an entry the leader appended took
 * to be committed, from its append to the high watermark passing it (commit-latency); and how
 * long an election took, from becoming a candidate (or prospective) to knowing a leader
 * (election-latency), as histograms in milliseconds. Named as decisions/0009 names
 * kafka.server:type=raft-metrics (docs/metrics.md).
 */
import type { Counter, Histogram, MetricsSink } from "../ports/index.js";
import type { RaftOutput } from "./output.js";
import type { RaftDriverStatus } from "./raft-driver-options.js";

const RAFT = "kafka_server_raftmetrics";
/** Where a v2 batch header keeps its last offset delta. */
const LAST_OFFSET_DELTA_AT = 23;

const help = (what: string, name: string): string =>
  `${what} (Kafka's kafka.server:type=raft-metrics ${name}).`;

/** The number of records of a v2 batch: its last offset delta plus one. */
function recordCount(batch: Uint8Array): number {
  if (batch.length < LAST_OFFSET_DELTA_AT + 4) return 0;
  const view = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  return view.getInt32(LAST_OFFSET_DELTA_AT) + 1;
}

export class RaftMetrics {
  private readonly appendRecords: Counter;
  private readonly fetchRecords: Counter;
  private readonly commitLatency: Histogram;
  private readonly electionLatency: Histogram;
  /** The leader's appends not committed yet: where each ends, and when it was appended. */
  private pending: { readonly endOffset: number; readonly appendedAtMs: number }[] = [];
  private electionStartMs: number | undefined;
  private lastRole: RaftDriverStatus["role"] | undefined;

  constructor(sink: MetricsSink) {
    this.appendRecords = sink.counter(
      `${RAFT}_append_records_total`,
      help("Records appended by the leader", "append-records-rate"),
    );
    this.fetchRecords = sink.counter(
      `${RAFT}_fetch_records_total`,
      help("Records fetched from the leader", "fetch-records-rate"),
    );
    this.commitLatency = sink.histogram(
      `${RAFT}_commit_latency_ms`,
      help("From the leader's append of an entry to its commit, ms", "commit-latency"),
    );
    this.electionLatency = sink.histogram(
      `${RAFT}_election_latency_ms`,
      help("From the start of an election to a known leader, ms", "election-latency"),
    );
  }

  /** Takes in one applied output and the node's status after it, at `nowMs`. */
  observe(output: RaftOutput, status: RaftDriverStatus, nowMs: number): void {
    const isLeader = status.role === "leader";
    if (output.append !== null) {
      const records = output.append.batches.reduce((sum, batch) => sum + recordCount(batch), 0);
      if (isLeader) {
        this.appendRecords.inc(records);
        this.pending.push({ endOffset: output.append.endOffset, appendedAtMs: nowMs });
      } else this.fetchRecords.inc(records);
    }
    if (!isLeader) this.pending = [];
    const highWatermark = output.highWatermark;
    if (highWatermark !== null) {
      const committed = this.pending.filter((entry) => entry.endOffset <= highWatermark);
      for (const entry of committed) this.commitLatency.observe(nowMs - entry.appendedAtMs);
      this.pending = this.pending.filter((entry) => entry.endOffset > highWatermark);
    }
    const wasLeader = this.lastRole === "leader";
    this.lastRole = status.role;
    if (status.role === "candidate" || status.role === "prospective") {
      this.electionStartMs ??= nowMs;
    } else if (
      (isLeader && !wasLeader) ||
      (this.electionStartMs !== undefined && status.leaderId !== null)
    ) {
      // A sole voter wins the election it starts in the same step.
      this.electionLatency.observe(nowMs - (this.electionStartMs ?? nowMs));
      this.electionStartMs = undefined;
    }
  }
}
