/**
 * The mutable heart of a Raft node: its log view, the voter and kraft.version histories, its
 * epoch state, the published high watermark, the requests in flight, and the output being
 * built for the current input. Handlers in the other files read and change it; RaftNode is
 * the public face that feeds it inputs.
 */
import { assert, ZERO_UUID } from "../common/index.js";
import type { Random } from "../ports/index.js";
import { RecordBatchHeader } from "../protocol/index.js";
import type { RaftConfig } from "./config.js";
import { controlRecordsOf, type LoggedControlRecord } from "./control-records.js";
import { randomElectionTimeoutMs } from "./election-timing.js";
import { knownLeaderId, type EpochState, type SnapshotDownload } from "./epoch-state.js";
import type { LeaderState } from "./leader-state.js";
import type { LogView } from "./log-view.js";
import type { LogRead, RaftApi, RaftRequest, RaftResponse, SnapshotRead } from "./messages.js";
import type { OffsetHistory } from "./offset-history.js";
import { OutputBuilder, type QuorumStateToPersist } from "./output.js";
import type { LeaderAndEpoch } from "./response-builders.js";
import { VoterSet } from "./voter-set.js";
import type { ReplicaKey } from "./types.js";

/** A request the node sent and has not had an answer or failure for. */
export interface InflightRequest {
  readonly requestId: number;
  readonly api: RaftApi;
  readonly destinationId: number;
  readonly epoch: number;
}

/** A batch header's facts the node's bookkeeping needs. */
export interface AppendedBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  readonly isControl: boolean;
  readonly bytes: Uint8Array;
}

/** The node's state, shared by its handlers. */
export class NodeCore {
  state: EpochState;
  /** The high watermark last published; it never moves backwards. */
  highWatermark: number | undefined = undefined;
  /** The log end offset the driver confirmed durable. */
  persistedEndOffset: number;
  nowMs = 0;
  out = new OutputBuilder();
  readonly inflight = new Map<number, InflightRequest>();
  /** Per destination, the time before which no new request goes to it (after a failure). */
  readonly retryAtMs = new Map<number, number>();
  /**
   * The snapshot being downloaded from the leader, if any. It lives as long as the follower
   * state of its leader and epoch, except once installing (all bytes are written by then).
   */
  download: SnapshotDownload | null = null;
  /** The leader state just left, whose waiting requests poll answers. */
  formerLeader: LeaderState | null = null;
  /** When an observer that knows no leader may next ask a voter who leads. */
  discoveryAtMs = 0;
  private nextRequestId = 1;
  private persisted: QuorumStateToPersist;

  constructor(
    readonly config: RaftConfig,
    readonly random: Random,
    readonly log: LogView,
    readonly voters: OffsetHistory<VoterSet>,
    readonly kraftVersion: OffsetHistory<number>,
    initial: { readonly state: EpochState; readonly persisted: QuorumStateToPersist },
  ) {
    this.state = initial.state;
    this.persisted = initial.persisted;
    this.persistedEndOffset = log.endOffset;
  }

  /**
   * Abandons the download under way when the node is no longer the follower of the leader and
   * epoch it belongs to, as Kafka drops the partial snapshot with its FollowerState on any
   * transition. An installing download stays: its bytes are whole. Says whether it abandoned.
   */
  maybeAbandonDownload(): boolean {
    const download = this.download;
    if (download === null || download.isInstalling) return false;
    const state = this.state;
    const isSameFollower =
      state.kind === "follower" &&
      state.leaderId === download.leaderId &&
      state.epoch === download.epoch;
    if (isSameFollower) return false;
    this.out.snapshot({ kind: "abandonSnapshotDownload", snapshotId: download.snapshotId });
    this.download = null;
    return true;
  }

  /** Starts the output of one input at `nowMs`; time never goes back. */
  begin(nowMs: number): void {
    assert(nowMs >= this.nowMs, "time does not go backwards");
    this.nowMs = nowMs;
    this.out = new OutputBuilder();
  }

  localKey(): ReplicaKey {
    return { id: this.config.nodeId, directoryId: this.config.directoryId };
  }

  epoch(): number {
    return this.state.epoch;
  }

  /** True when this node is a voter of the set in force. */
  isLocalVoter(): boolean {
    return this.voters.latest().isVoter(this.localKey());
  }

  /** The leader this node knows in its epoch, as responses report it. */
  leaderAndEpoch(): LeaderAndEpoch {
    return { leaderId: knownLeaderId(this.state, this.config.nodeId) ?? -1, epoch: this.epoch() };
  }

  /** Sends a request and returns its id. */
  sendRequest(destinationId: number, request: RaftRequest): number {
    const requestId = this.nextRequestId++;
    this.inflight.set(requestId, {
      requestId,
      api: request.api,
      destinationId,
      epoch: this.epoch(),
    });
    this.out.message({ kind: "request", requestId, destinationId, request });
    return requestId;
  }

  hasInflight(api: RaftApi, destinationId: number): boolean {
    for (const request of this.inflight.values()) {
      if (request.api === api && request.destinationId === destinationId) return true;
    }
    return false;
  }

  /** False while the destination's retry backoff (`retryAtMs`) has not passed. */
  mayContact(destinationId: number): boolean {
    return (this.retryAtMs.get(destinationId) ?? -1) <= this.nowMs;
  }

  respond(
    requestId: number,
    response: RaftResponse,
    read: LogRead | SnapshotRead | null = null,
  ): void {
    this.out.message({ kind: "response", requestId, response, read });
  }

  /**
   * Asks the driver to persist the election state if it changed: the epoch, the leader, and
   * the vote, which must be durable before the vote's response is sent.
   */
  persistElectionState(): void {
    const state = this.state;
    let leaderId = knownLeaderId(state, this.config.nodeId) ?? -1;
    // The file keeps the leader a prospective node followed, and a resigned leader itself.
    if (state.kind === "prospective") leaderId = state.leaderId ?? -1;
    if (state.kind === "resigned") leaderId = this.config.nodeId;
    let voted: ReplicaKey | null = null;
    if (state.kind === "unattached" || state.kind === "prospective") voted = state.votedKey;
    if (state.kind === "candidate") voted = this.localKey();
    const next: QuorumStateToPersist = {
      leaderId,
      leaderEpoch: state.epoch,
      votedId: voted?.id ?? -1,
      votedDirectoryId: voted?.directoryId ?? ZERO_UUID,
    };
    if (JSON.stringify(next) === JSON.stringify(this.persisted)) return;
    this.persisted = next;
    this.out.persist(next);
  }

  /** Publishes a high watermark if it is past the published one; says whether it moved. */
  publishHighWatermark(highWatermark: number): boolean {
    if (this.highWatermark !== undefined && highWatermark <= this.highWatermark) return false;
    this.highWatermark = highWatermark;
    this.out.moveHighWatermark(highWatermark);
    return true;
  }

  /**
   * Notes batches asked to be appended: the log view moves on, and the control records they
   * hold take effect at once (the latest voter set is in force even uncommitted, KIP-853).
   */
  noteAppended(batches: readonly AppendedBatch[]): void {
    for (const batch of batches) {
      this.log.appendBatch(batch);
      if (batch.isControl) this.applyControlRecords(controlRecordsOf(batch.bytes));
    }
  }

  /** Applies KRaftVersion and Voters records to the histories. */
  applyControlRecords(records: readonly LoggedControlRecord[]): void {
    applyControlRecords({ voters: this.voters, kraftVersion: this.kraftVersion }, records);
  }

  /** The election timeout or backoff deadline a new state starts with. */
  randomElectionDeadlineMs(): number {
    return this.nowMs + randomElectionTimeoutMs(this.random, this.config.timings.electionTimeoutMs);
  }
}

/** The bookkeeping facts of a complete batch, read from its header. */
export function appendedBatchOf(bytes: Uint8Array): AppendedBatch {
  const header = new RecordBatchHeader(bytes);
  return {
    baseOffset: header.baseOffset,
    lastOffset: header.lastOffset,
    epoch: header.partitionLeaderEpoch,
    isControl: header.isControl,
    bytes,
  };
}

/** Applies the KRaftVersion and Voters records among `records` to the histories, in order. */
export function applyControlRecords(
  histories: {
    readonly voters: OffsetHistory<VoterSet>;
    readonly kraftVersion: OffsetHistory<number>;
  },
  records: readonly LoggedControlRecord[],
  options: { readonly skipCovered?: boolean } = {},
): void {
  for (const record of records) {
    // At start the latest snapshot's records (at its end offset - 1) stand for the log below
    // its end, which may still hold older control records: those are already covered.
    const history = record.value.type === "kraftVoters" ? histories.voters : histories.kraftVersion;
    if (options.skipCovered === true && isCovered(record.offset, history.latestOffset())) continue;
    if (record.value.type === "kraftVoters") {
      histories.voters.add(record.offset, VoterSet.fromVotersRecord(record.value.data));
    } else if (record.value.type === "kraftVersion") {
      histories.kraftVersion.add(record.offset, record.value.data.kRaftVersion);
    }
  }
}

/** True when a record at `offset` is older than the latest value of its history. */
function isCovered(offset: number, latestOffset: number): boolean {
  // A bootstrap checkpoint's record (offset -1) replaces the configured value at -1.
  return offset < latestOffset || (offset === latestOffset && offset >= 0);
}
