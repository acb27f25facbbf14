/**
 * The Raft driver carries out a RaftNode's outputs (README.md, "Driving a node"): quorum state
 * persisted before anything of the output is sent; appends reported once durable (group
 * commit); snapshots; requests sent and answered; one timer; commits to listeners; metrics.
 * Every input goes through one queue, so outputs are applied whole and in order. States:
 * running → stopping → stopped; an I/O failure of the metadata log makes it failed.
 */
import { assert } from "../common/index.js";
import type { Timer } from "../ports/index.js";
import type { ApiKey, ApiRequest, ApiResponse } from "../protocol/index.js";
import { CommitDelivery } from "./log/commit-delivery.driver.js";
import { GroupFlush } from "./log/group-flush.driver.js";
import { DEFAULT_METADATA_SEGMENT_BYTES, RaftStorage } from "./log/raft-storage.driver.js";
import { snapshotBatches } from "./log/snapshot-batches.js";
import { steadyClock } from "./steady-clock.js";
import type { InboundResponse, RaftRequest, RaftResponse } from "./messages.js";
import type { RaftOutput } from "./output.js";
import type { ProposeOptions, ProposeResult } from "./propose.js";
import { RaftMetrics } from "./raft-metrics.js";
import { RaftNode } from "./raft-node.js";
import type { RaftApiBridge } from "./raft-driver-apis.js";
import { InboundRequests, OutboundRequests } from "./raft-driver-requests.js";
import type { RaftDriverOptions, RaftDriverStatus, SnapshotResult } from "./raft-driver-options.js";
import type { Endpoint, SnapshotInfo } from "./types.js";

type DriverState = "running" | "stopping" | "stopped" | "failed";

/** Drives one RaftNode against storage, the network and time. */
export class RaftDriver {
  private state: DriverState = "running";
  private tail: Promise<void> = Promise.resolve();
  private timer: { readonly timer: Timer; readonly atMs: number } | undefined;
  private readonly inbound = new InboundRequests();
  private readonly outbound: OutboundRequests;
  private readonly groupFlush: GroupFlush;
  private readonly leaderWaiters = new Set<() => void>();
  private readonly metrics: RaftMetrics | undefined;

  private constructor(
    private readonly options: RaftDriverOptions,
    private readonly node: RaftNode,
    private readonly storage: RaftStorage,
    private readonly delivery: CommitDelivery,
  ) {
    this.outbound = new OutboundRequests(options.transport, (requestId, response) =>
      this.schedule(() =>
        this.input((nowMs) =>
          response === undefined
            ? this.node.handleRequestFailure(nowMs, requestId)
            : this.node.handleResponse(nowMs, { requestId, response } as InboundResponse),
        ),
      ),
    );
    this.metrics = options.metrics === undefined ? undefined : new RaftMetrics(options.metrics);
    this.groupFlush = new GroupFlush({
      flush: () => this.storage.log.flush(),
      // The durable end is read when the node is told, after any truncation in between, so
      // a flush of batches that a truncation removed never vouches for their replacements.
      flushed: () =>
        this.schedule(() =>
          this.input((nowMs) =>
            this.node.logAppended(nowMs, { endOffset: this.storage.log.flushedOffset }),
          ),
        ),
      failed: (error) => this.fail(error),
      isActive: () => this.state === "running" || this.state === "stopping",
    });
  }

  /**
   * Opens the metadata log (recovering it), reads the quorum state and the snapshots, builds
   * the node, loads the latest snapshot into the listeners and lets the node run.
   */
  static async start(options: RaftDriverOptions): Promise<RaftDriver> {
    const { storage, state } = await RaftStorage.open({
      ...options,
      segmentBytes: options.segmentBytes ?? DEFAULT_METADATA_SEGMENT_BYTES,
    });
    const clock = steadyClock(options.clock);
    const node = new RaftNode({
      config: options.config,
      random: options.random,
      ...state,
      nowMs: clock.nowMs(),
    });
    const delivery = new CommitDelivery(storage.log, storage.snapshots, options.listeners);
    const driver = new RaftDriver({ ...options, clock }, node, storage, delivery);
    await delivery.loadLatestSnapshot();
    options.logger.info("raft node started", { ...driver.status });
    await driver.enqueue(() => driver.input((nowMs) => node.tick(nowMs)));
    return driver;
  }

  /** The node's role, epoch and leader, and the log's offsets, now. */
  get status(): RaftDriverStatus {
    const log = this.storage.log;
    return {
      role: this.node.state.kind,
      epoch: this.node.epoch,
      leaderId: this.node.leaderId,
      highWatermark: this.node.highWatermark,
      logStartOffset: log.logStartOffset,
      logEndOffset: log.endOffset,
      flushCount: log.flushCount,
      deliveredEndOffset: this.delivery.deliveredEndOffset,
      voterIds: this.node.voterIds(),
    };
  }
  /** DescribeQuorum's answer here, now (the replicas' progress only where this node leads). */
  describeQuorum = () => this.node.describeQuorum();

  /** Voter `id`'s endpoints in the voter set in force, for a transport to reach it. */
  voterEndpoints = (id: number): readonly Endpoint[] | undefined => this.node.voterEndpoints(id);

  /**
   * Answers a request of the controller listener (Vote, BeginQuorumEpoch, EndQuorumEpoch, Fetch,
   * FetchSnapshot, DescribeQuorum, AddRaftVoter, RemoveRaftVoter or UpdateRaftVoter) through
   * the bridge of its API. Rejects when the driver is stopped (the router answers with an error
   * code).
   */
  async answerApi<K extends ApiKey>(
    bridge: RaftApiBridge<K>,
    body: ApiRequest<K>,
  ): Promise<ApiResponse<K>> {
    const response = bridge.response(await this.answer(bridge.request(body), null));
    assert(response !== undefined, "the node answers a request in the request's API");
    return response;
  }

  /** Answers a request already in the node's terms. */
  answer(request: RaftRequest, senderId: number | null): Promise<RaftResponse> {
    if (this.state === "stopped" || this.state === "failed") {
      return Promise.reject(new Error("the raft node is not running"));
    }
    if (this.inbound.isFull) {
      return Promise.reject(new Error("too many requests wait for the raft node"));
    }
    return this.inbound.add((requestId) =>
      this.schedule(() =>
        this.input((nowMs) => this.node.handleRequest(nowMs, { requestId, senderId, request })),
      ),
    );
  }

  /** Proposes metadata records, at `requiredBaseOffset` if given; see RaftNode.propose. */
  propose(records: readonly Uint8Array[], options: ProposeOptions = {}): Promise<ProposeResult> {
    if (this.state !== "running") return Promise.resolve({ kind: "refused", reason: "notLeader" });
    return this.enqueue(async () => {
      const { result, output } = this.node.propose(this.options.clock.nowMs(), records, options);
      await this.apply(output);
      return result;
    });
  }

  /**
   * Writes a snapshot of the state at `endOffset` (committed), holding `records` (the state
   * machine's record values); the log before it is then deleted.
   */
  createSnapshot(options: {
    readonly endOffset: number;
    readonly lastContainedLogTimestamp: number;
    readonly records: readonly Uint8Array[];
  }): Promise<SnapshotResult> {
    if (this.state !== "running") return Promise.resolve({ ok: false, reason: "stopped" });
    return this.enqueue(async () => {
      const created = this.node.createSnapshot(options);
      if (!created.ok) return created;
      const timestamp = options.lastContainedLogTimestamp;
      const batches = snapshotBatches({ ...created, records: options.records, timestamp });
      const info = await this.storage.snapshots.write(created.snapshotId, batches);
      await this.input((nowMs) => this.node.snapshotWritten(nowMs, info));
      return { ok: true, snapshot: info } as const;
    });
  }

  /**
   * Graceful shutdown: a leader resigns and sends EndQuorumEpoch, then the driver waits up to
   * `shutdownWaitMs` for another leader before it stops answering and closes the log.
   */
  async shutdown(): Promise<void> {
    if (this.state !== "running") return;
    this.state = "stopping";
    const wasLeader = this.node.state.kind === "leader";
    await this.enqueue(() => this.input((nowMs) => this.node.resign(nowMs)));
    if (wasLeader) await this.waitForSuccessor();
    await this.stop();
  }

  /** Stops at once, without resigning (as a crash would, but with the files closed). */
  async stop(): Promise<void> {
    if (this.state === "stopped") return;
    if (this.state !== "failed") this.state = "stopped";
    this.timer?.timer.cancel();
    this.timer = undefined;
    this.inbound.failAll(new Error("the raft node stopped"));
    await this.tail;
    await this.groupFlush.idle();
    if (this.state !== "failed") await this.storage.close();
  }

  private waitForSuccessor(): Promise<void> {
    const selfId = this.options.config.nodeId;
    const waitMs = this.options.shutdownWaitMs ?? this.options.config.timings.electionTimeoutMs;
    return new Promise<void>((resolve) => {
      const timer = this.options.timers.schedule(waitMs, () => done());
      const check = (): void => {
        if (![null, selfId].includes(this.node.leaderId)) done();
      };
      const done = (): void => {
        timer.cancel();
        this.leaderWaiters.delete(check);
        resolve();
      };
      this.leaderWaiters.add(check);
    });
  }

  /** Runs `job` in the queue; result or error to the caller. */
  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.tail.then(job);
    this.tail = run.then(
      () => undefined,
      (error: unknown) => this.fail(error),
    );
    return run;
  }

  /** Runs `job` in the queue unless the driver stopped; failures stop the node. */
  private schedule(job: () => Promise<void>): void {
    this.tail = this.tail.then(async () => {
      if (this.state === "stopped" || this.state === "failed") return;
      try {
        await job();
      } catch (error) {
        this.fail(error);
      }
    });
  }

  private fail(error: unknown): void {
    if (this.state === "failed" || this.state === "stopped") return;
    this.state = "failed";
    this.timer?.timer.cancel();
    this.inbound.failAll(new Error("the raft node failed", { cause: error }));
    this.options.logger.error("the metadata log failed; the raft node stops", {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    this.options.onFatalError(error);
  }

  private async input(step: (nowMs: number) => RaftOutput): Promise<void> {
    await this.apply(step(this.options.clock.nowMs()));
  }

  /** Applies one output in README.md's order. */
  private async apply(output: RaftOutput): Promise<void> {
    if (output.quorumState !== null) {
      await this.storage.persistQuorumState(output.quorumState);
    }
    if (output.truncateTo !== null) await this.storage.log.truncateTo(output.truncateTo);
    if (output.append !== null) {
      await this.storage.log.append(output.append.batches);
      this.groupFlush.request();
    }
    const installed: SnapshotInfo[] = [];
    for (const action of output.snapshotActions) {
      const info = await this.storage.applySnapshotAction(action);
      if (info === undefined) continue;
      await this.delivery.load(info);
      installed.push(info);
    }
    for (const message of output.send) {
      if (message.kind === "response") {
        this.inbound.answer(message.requestId, await this.storage.fill(message));
      } else this.outbound.send(message.requestId, message.destinationId, message.request);
    }
    if (output.highWatermark !== null) await this.delivery.deliverTo(output.highWatermark);
    if (output.leaderChanged !== null) {
      this.delivery.leaderChanged(output.leaderChanged);
      for (const check of [...this.leaderWaiters]) check();
    }
    this.armTimer(output.wakeupAtMs);
    this.metrics?.observe(output, this.status, this.options.clock.nowMs());
    for (const info of installed) {
      await this.input((nowMs) => this.node.snapshotLoaded(nowMs, info));
    }
  }

  private armTimer(wakeupAtMs: number): void {
    if (this.state === "stopped" || this.state === "failed") return;
    if (this.timer?.atMs === wakeupAtMs) return;
    this.timer?.timer.cancel();
    const delayMs = Math.max(0, wakeupAtMs - this.options.clock.nowMs());
    const timer = this.options.timers.schedule(delayMs, () => {
      if (this.timer?.timer === timer) this.timer = undefined;
      this.schedule(() => this.input((nowMs) => this.node.tick(nowMs)));
    });
    this.timer = { timer, atMs: wakeupAtMs };
  }
}
