/**
 * RaftNode: the KRaft-style consensus node of the metadata log, pure and synchronous. Every
 * input (time passing, a message, a persistence confirmation, a proposal) returns one
 * RaftOutput that the driver applies in order (see README.md). Its states and transitions are
 * listed in transitions.ts; it never reads a clock, a file or a socket.
 */
import { assert, assertNever } from "../common/index.js";
import type { Random } from "../ports/index.js";
import type { DescribeQuorumResponse } from "../protocol/index.js";
import { checkRaftConfig, type RaftConfig } from "./config.js";
import { type LoggedControlRecord } from "./control-records.js";
import { describeQuorum } from "./describe-quorum.js";
import { randomElectionTimeoutMs } from "./election-timing.js";
import { handleFetchResponse } from "./follower-fetch.js";
import { initialState, type PersistedElectionState } from "./initial-state.js";
import {
  handleFetchRequest,
  handleFetchSnapshotRequest,
  onHighWatermarkMoved,
} from "./leader-fetch.js";
import { LogView, type LogShape } from "./log-view.js";
import type { InboundRequest, InboundResponse } from "./messages.js";
import { applyControlRecords, NodeCore } from "./node-core.js";
import { OffsetHistory } from "./offset-history.js";
import type { RaftOutput } from "./output.js";
import { nextWakeupMs, poll } from "./poll.js";
import {
  handleBeginQuorumEpochRequest,
  handleBeginQuorumEpochResponse,
  handleEndQuorumEpochRequest,
  handleEndQuorumEpochResponse,
} from "./quorum-epoch-handling.js";
import {
  createSnapshot,
  handleFetchSnapshotResponse,
  snapshotLoaded,
  snapshotWritten,
  type CreateSnapshotResult,
} from "./snapshots.js";
import { proposeRecords, type ProposeOptions, type ProposeResult } from "./propose.js";
import { becomeResigned, maybeStandAsOnlyVoter } from "./transitions.js";
import type { Endpoint, SnapshotInfo } from "./types.js";
import {
  handleAddRaftVoter,
  handleRemoveRaftVoter,
  handleUpdateRaftVoter,
} from "./voter-changes.js";
import { handleVoteRequest, handleVoteResponse } from "./vote-handling.js";
import { VoterSet } from "./voter-set.js";

/** What a node is built from: its configuration, what is on disk, and its randomness. */
export interface RaftNodeOptions {
  readonly config: RaftConfig;
  readonly random: Random;
  /** The quorum-state file's election state, or EMPTY_ELECTION_STATE for a new node. */
  readonly electionState: PersistedElectionState;
  /** The log as the driver found it, with the control records of its latest snapshot and log. */
  readonly log: LogShape & { readonly controlRecords: readonly LoggedControlRecord[] };
  readonly nowMs: number;
}

/** The role of a node, for observability and tests. */
export type RaftRole = RaftNode["state"]["kind"];

/** A KRaft-style Raft node, driven entirely by its inputs. */
export class RaftNode {
  private readonly core: NodeCore;
  /** False until the first input, which runs the start-up transitions. */
  private hasStarted = false;

  constructor(options: RaftNodeOptions) {
    checkRaftConfig(options.config);
    const { config, random } = options;
    const log = new LogView(options.log);
    const voters = new OffsetHistory(VoterSet.fromConfigured(config.bootstrapVoters));
    const kraftVersion = new OffsetHistory<number>(config.kraftVersion);
    applyControlRecords({ voters, kraftVersion }, options.log.controlRecords, {
      skipCovered: true,
    });
    const initial = initialState({
      config,
      persisted: options.electionState,
      logLastEpoch: log.lastFetchedEpoch(),
      isVoter: voters.latest().isVoter({ id: config.nodeId, directoryId: config.directoryId }),
      nowMs: options.nowMs,
      electionTimeoutMs: randomElectionTimeoutMs(random, config.timings.electionTimeoutMs),
    });
    this.core = new NodeCore(config, random, log, voters, kraftVersion, initial);
    this.core.nowMs = options.nowMs;
  }

  /** The node's current epoch state (read-only use: tests, metrics, the driver's logging). */
  get state(): NodeCore["state"] {
    return this.core.state;
  }

  get epoch(): number {
    return this.core.epoch();
  }

  get leaderId(): number | null {
    const leaderId = this.core.leaderAndEpoch().leaderId;
    return leaderId < 0 ? null : leaderId;
  }

  /** The published high watermark, or null before any is known. */
  get highWatermark(): number | null {
    return this.core.highWatermark ?? null;
  }

  /** The log end offset the node counts on (appends asked for, confirmed or not). */
  get logEndOffset(): number {
    return this.core.log.endOffset;
  }

  get logStartOffset(): number {
    return this.core.log.logStartOffset;
  }

  voterIds(): number[] {
    return this.core.voters.latest().ids();
  }

  /** DescribeQuorum's answer as of the node's last input: the replicas at a leader only. */
  describeQuorum(): DescribeQuorumResponse {
    return describeQuorum(this.core);
  }

  /** The endpoints of voter `id` in the voter set in force (from the log or bootstrap). */
  voterEndpoints(id: number): readonly Endpoint[] | undefined {
    return this.core.voters.latest().voter(id)?.endpoints;
  }

  /** Lets timers act: elections, fetch timeout, check quorum, linger, long polls, retries. */
  tick(nowMs: number): RaftOutput {
    return this.run(nowMs, () => undefined);
  }

  /** Handles a received request; its response is in this output or a later one. */
  handleRequest(nowMs: number, inbound: InboundRequest): RaftOutput {
    return this.run(nowMs, () => this.dispatchRequest(inbound));
  }

  handleResponse(nowMs: number, inbound: InboundResponse): RaftOutput {
    return this.run(nowMs, () => {
      const inflight = this.core.inflight.get(inbound.requestId);
      if (inflight === undefined) return;
      this.core.inflight.delete(inbound.requestId);
      assert(inflight.api === inbound.response.api, "a response answers a request of its API");
      const response = inbound.response;
      switch (response.api) {
        case "vote":
          return handleVoteResponse(this.core, inflight, response.body);
        case "beginQuorumEpoch":
          return handleBeginQuorumEpochResponse(this.core, inflight, response.body);
        case "endQuorumEpoch":
          return handleEndQuorumEpochResponse(this.core, inflight, response.body);
        case "fetch":
          return handleFetchResponse(this.core, inflight, response.body);
        case "fetchSnapshot":
          return handleFetchSnapshotResponse(this.core, inflight, response.body);
        case "describeQuorum":
        case "addRaftVoter":
        case "removeRaftVoter":
        case "updateRaftVoter":
          return;
        default:
          return assertNever(response);
      }
    });
  }

  /** A request this node sent failed (timeout, disconnect): retry after the backoff. */
  handleRequestFailure(nowMs: number, requestId: number): RaftOutput {
    return this.run(nowMs, () => {
      const inflight = this.core.inflight.get(requestId);
      if (inflight === undefined) return;
      this.core.inflight.delete(requestId);
      this.core.retryAtMs.set(
        inflight.destinationId,
        nowMs + this.core.config.timings.retryBackoffMs,
      );
      const state = this.core.state;
      if (state.kind === "follower" && state.inflightRequestId === requestId) {
        state.inflightRequestId = null;
        state.nextFetchAtMs = nowMs + this.core.config.timings.retryBackoffMs;
      }
    });
  }

  /**
   * Proposes records (serialised metadata records) for the log. Accepted records get their
   * offsets now and are appended after the linger time or when a batch fills; with
   * `requiredBaseOffset` they are refused, and nothing written, unless they start there.
   */
  propose(
    nowMs: number,
    records: readonly Uint8Array[],
    options: ProposeOptions = {},
  ): { readonly result: ProposeResult; readonly output: RaftOutput } {
    let result: ProposeResult = { kind: "refused", reason: "notLeader" };
    const output = this.run(nowMs, () => {
      result = proposeRecords(this.core, records, options);
    });
    return { result, output };
  }

  /** The driver made the log durable up to `endOffset`. */
  logAppended(nowMs: number, appended: { readonly endOffset: number }): RaftOutput {
    return this.run(nowMs, () => {
      const core = this.core;
      core.persistedEndOffset = Math.max(
        core.persistedEndOffset,
        Math.min(appended.endOffset, core.log.endOffset),
      );
      const state = core.state;
      if (state.kind === "leader") {
        state.leader.accumulator.confirm(core.persistedEndOffset);
        if (state.leader.updateLocalEndOffset(core.persistedEndOffset, nowMs))
          onHighWatermarkMoved(core, state.leader);
      } else if (state.kind === "follower" && state.awaitingEndOffset !== null) {
        if (core.persistedEndOffset >= state.awaitingEndOffset) state.awaitingEndOffset = null;
      }
    });
  }

  /** Graceful shutdown: a leader resigns and names its successors; others need do nothing. */
  resign(nowMs: number): RaftOutput {
    return this.run(nowMs, () => {
      if (this.core.state.kind === "leader") becomeResigned(this.core);
    });
  }

  /** Asks for a snapshot at a committed offset; the driver then writes it (see README.md). */
  createSnapshot(options: {
    readonly endOffset: number;
    readonly lastContainedLogTimestamp: number;
  }): CreateSnapshotResult {
    return createSnapshot(this.core, options);
  }

  /** The driver wrote a snapshot completely and durably. */
  snapshotWritten(nowMs: number, info: SnapshotInfo): RaftOutput {
    return this.run(nowMs, () => snapshotWritten(this.core, info));
  }

  /** The driver installed a downloaded snapshot and reset the log to start after it. */
  snapshotLoaded(nowMs: number, info: SnapshotInfo): RaftOutput {
    return this.run(nowMs, () => snapshotLoaded(this.core, info));
  }

  private run(nowMs: number, handle: () => void): RaftOutput {
    this.core.begin(nowMs);
    if (!this.hasStarted) {
      this.hasStarted = true;
      maybeStandAsOnlyVoter(this.core);
    }
    // Timers run first, so an input is judged by a state that is current at nowMs (a follower
    // whose fetch timeout passed no longer vouches for its leader), and again after it.
    poll(this.core);
    handle();
    poll(this.core);
    return this.core.out.build(nextWakeupMs(this.core));
  }

  private dispatchRequest(inbound: InboundRequest): void {
    const { requestId, request } = inbound;
    const core = this.core;
    switch (request.api) {
      case "vote":
        return handleVoteRequest(core, requestId, request.body);
      case "beginQuorumEpoch":
        return handleBeginQuorumEpochRequest(core, requestId, request.body);
      case "endQuorumEpoch":
        return handleEndQuorumEpochRequest(core, requestId, request.body);
      case "fetch":
        return handleFetchRequest(core, requestId, request.body);
      case "fetchSnapshot":
        return handleFetchSnapshotRequest(core, requestId, request.body);
      case "describeQuorum":
        return core.respond(requestId, { api: "describeQuorum", body: describeQuorum(core) });
      case "addRaftVoter":
        return handleAddRaftVoter(core, requestId, request.body);
      case "removeRaftVoter":
        return handleRemoveRaftVoter(core, requestId, request.body);
      case "updateRaftVoter":
        return handleUpdateRaftVoter(core, requestId, request.body);
      default:
        assertNever(request);
    }
  }
}
