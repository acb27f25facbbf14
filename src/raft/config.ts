/**
 * The static configuration of a Raft node: who it is, the voters it starts from, and the
 * `controller.quorum.*` timings with Kafka's defaults.
 */
import { assert, type Uuid } from "../common/index.js";
import type { Endpoint } from "./types.js";

/** A voter as configured by `controller.quorum.voters` or a bootstrap checkpoint. */
export interface ConfiguredVoter {
  readonly id: number;
  /** Null for `controller.quorum.voters` entries, which name no directory (kraft.version 0). */
  readonly directoryId: Uuid | null;
  readonly endpoints: readonly Endpoint[];
}

/** The timings and limits of the quorum, named after Kafka's `controller.quorum.*` keys. */
export interface RaftTimings {
  /** `controller.quorum.election.timeout.ms`: the base of the randomised election timeout. */
  readonly electionTimeoutMs: number;
  /** `controller.quorum.election.backoff.max.ms`: the cap of the backoff after a lost election. */
  readonly electionBackoffMaxMs: number;
  /** `controller.quorum.fetch.timeout.ms`: a follower that hears nothing this long elects. */
  readonly fetchTimeoutMs: number;
  /** `controller.quorum.append.linger.ms`: how long proposals wait to fill a batch. */
  readonly appendLingerMs: number;
  /** `controller.quorum.retry.backoff.ms`: the pause before retrying a failed request. */
  readonly retryBackoffMs: number;
  /** The largest batch the leader builds (Kafka's MAX_BATCH_SIZE_BYTES, 8 MiB). */
  readonly appendBatchBytesMax: number;
  /** Proposed bytes not yet persisted beyond which `propose` refuses (back-pressure). */
  readonly pendingAppendBytesMax: number;
  /** The longest a follower's Fetch waits at the leader (Kafka's MAX_FETCH_WAIT_MS, 500). */
  readonly fetchMaxWaitMs: number;
  /** The most bytes a Fetch asks for (Kafka's MAX_FETCH_SIZE_BYTES, 8 MiB). */
  readonly fetchMaxBytes: number;
  /** The most bytes one FetchSnapshot asks for. */
  readonly snapshotChunkBytes: number;
}

/** Kafka's defaults for the quorum timings. */
export const DEFAULT_RAFT_TIMINGS: RaftTimings = {
  electionTimeoutMs: 1000,
  electionBackoffMaxMs: 1000,
  fetchTimeoutMs: 2000,
  appendLingerMs: 25,
  retryBackoffMs: 20,
  appendBatchBytesMax: 8 * 1024 * 1024,
  pendingAppendBytesMax: 64 * 1024 * 1024,
  fetchMaxWaitMs: 500,
  fetchMaxBytes: 8 * 1024 * 1024,
  snapshotChunkBytes: 1024 * 1024,
};

/** Everything a node needs that does not change while it runs. */
export interface RaftConfig {
  readonly nodeId: number;
  readonly directoryId: Uuid;
  /** The cluster id checked on every request that carries one; null skips the check. */
  readonly clusterId: string | null;
  /** This node's controller listeners, advertised when it leads or joins as a voter. */
  readonly listeners: readonly Endpoint[];
  /**
   * The voter set before the log holds any VotersRecord: `controller.quorum.voters` (with
   * kraftVersion 0) or the voters of the bootstrap checkpoint (kraftVersion 1).
   */
  readonly bootstrapVoters: readonly ConfiguredVoter[];
  /**
   * How many `controller.quorum.bootstrap.servers` there are (0 when absent). An observer that
   * knows no other voter asks them who leads, addressing server i as destination id -(i + 1):
   * the transport maps those ids to the servers' addresses (KIP-853).
   */
  readonly bootstrapServerCount?: number;
  /** The finalised kraft.version before the log says otherwise: 0 static voters, 1 dynamic. */
  readonly kraftVersion: 0 | 1;
  readonly timings: RaftTimings;
}

/** Checks a configuration's invariants; a bad configuration is a programmer error here. */
export function checkRaftConfig(config: RaftConfig): void {
  assert(Number.isInteger(config.nodeId) && config.nodeId >= 0, "a Raft node has an id");
  const ids = new Set(config.bootstrapVoters.map((voter) => voter.id));
  assert(ids.size === config.bootstrapVoters.length, "bootstrap voter ids are distinct");
  const timings = config.timings;
  assert(timings.electionTimeoutMs > 0, "election timeout is positive");
  assert(timings.fetchTimeoutMs > 0, "fetch timeout is positive");
  assert(timings.electionBackoffMaxMs > 0, "election backoff is positive");
  assert(timings.appendBatchBytesMax > 0, "batch size limit is positive");
}
