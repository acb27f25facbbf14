/**
 * The timings and sizes of the Raft simulation. The quorum timings are Kafka's defaults scaled
 * by 0.3 with their ratios kept (fetch timeout twice the election timeout, check quorum 1.5
 * times the fetch timeout), so a few seconds of simulated time hold many elections.
 */
import { DEFAULT_RAFT_TIMINGS, type RaftTimings } from "../../src/raft/index.js";
import type { RaftRequest, RaftResponse } from "../../src/raft/index.js";

/** The quorum timings every simulated node runs with. */
export const simulatedTimings: RaftTimings = {
  ...DEFAULT_RAFT_TIMINGS,
  electionTimeoutMs: 300,
  electionBackoffMaxMs: 300,
  fetchTimeoutMs: 600,
  appendLingerMs: 5,
  retryBackoffMs: 20,
  fetchMaxWaitMs: 150,
  // Small chunks make a snapshot download take several FetchSnapshot round trips.
  snapshotChunkBytes: 96,
};

/** The driver's request timeout (Kafka's controller.quorum.request.timeout.ms, scaled). */
export const requestTimeoutMs = 600;

/** The shortest and longest time an fsync takes. */
export const flushLatencyMs = { min: 1, max: 5 } as const;

/**
 * The longest a leader may take to appear and commit a fresh proposal once the network healed
 * with a majority up: 10 election timeouts. The worst ordinary path is a fetch timeout (2) to
 * notice a dead leader, a pre-vote and a vote each bounded by a random timeout of 1-2, lost
 * rounds with a backoff of up to 1 each, and a round trip to commit; 10 leaves room for two
 * split votes and a restarted node's stale epoch.
 */
export const livenessBoundMs = 10 * simulatedTimings.electionTimeoutMs;

/** How long the faults last, and the quiet time after the liveness measurement. */
export const faultPhaseMs = { min: 1500, max: 3000 } as const;
export const quietPhaseMs = 1200;

/**
 * A message of the simulated controller listener: a request or its response. Both carry the
 * requester's incarnation: a response reaches only the incarnation that asked, as a response on
 * a TCP connection dies with the process that opened it.
 */
export type RaftEnvelope =
  | {
      readonly kind: "request";
      readonly requestId: number;
      readonly requesterIncarnation: number;
      readonly request: RaftRequest;
    }
  | {
      readonly kind: "response";
      readonly requestId: number;
      readonly requesterIncarnation: number;
      readonly response: RaftResponse;
    };

/** The simulated node name of a controller id. */
export function nodeName(id: number): string {
  return `c${id}`;
}
