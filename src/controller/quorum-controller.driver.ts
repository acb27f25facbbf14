/**
 * The quorum controller: one queue of operations on the active controller (Kafka's
 * QuorumController). Writes compute records from the latest in-memory image, are proposed to
 * Raft as one atomic batch each, and are answered when that batch commits; reads are answered
 * from the committed image once every earlier write committed. The committed image is replayed
 * from what Raft delivers (a MetadataLoader of the controller's own).
 *
 * States and transitions:
 *
 *   inactive ──Raft elects this node──▶ activating ──its first batch commits──▶ active
 *      ▲                                    │                                     │
 *      └──── another leader, or a later epoch's batch commits, or stop ───────────┘
 *
 * Inactive: every operation is refused with NOT_CONTROLLER, naming the known leader. Activating:
 * operations wait in the queue (see quorum/activation.driver.ts). Active: operations run in
 * queue order (quorum/operation-running.driver.ts). Leaving activating or active fails every
 * queued and uncommitted operation with NOT_CONTROLLER and reverts the in-memory image to the
 * committed one. Timers (quorum/controller-ticks.driver.ts) run the liveness scan, the leader
 * rebalance and snapshots.
 */
import { AssertionError } from "../common/index.js";
import { MetadataLoader } from "../metadata/index.js";
import type { CommittedBatch, LoadedSnapshot, MetadataImage } from "../metadata/index.js";
import { BrokerHeartbeats } from "./cluster/index.js";
import { electionPartitionHooks } from "./election/index.js";
import {
  beginActivation,
  maybeFinishActivation,
  proposeActivation,
} from "./quorum/activation.driver.js";
import type { ActivationHooks } from "./quorum/activation.driver.js";
import type {
  ControllerCore,
  ControllerState,
  QueuedEntry,
  QuorumControllerOptions,
} from "./quorum/controller-core.js";
import type { ControllerRaftListener, LeaderAndEpoch } from "./quorum/controller-raft.js";
import { ControllerMetrics } from "./quorum/controller-metrics.js";
import type { QuorumControllerSettings } from "./quorum/controller-settings.js";
import { ControllerTicks } from "./quorum/controller-ticks.driver.js";
import type { ControllerOperation } from "./quorum/operation.js";
import {
  answerAfterEarlierWrites,
  knownLeaderId,
  maybeCatchUpLatest,
  readContext,
  refuse,
  runWrite,
  updateQueueMetric,
} from "./quorum/operation-running.driver.js";
import { PendingCompletions } from "./quorum/pending-completions.js";
import { notControllerRefusal, queueFullRefusal } from "./quorum/refusals.js";

export type { ControllerState, QuorumControllerOptions } from "./quorum/controller-core.js";

/** The quorum controller driver. */
export class QuorumController implements ControllerRaftListener {
  readonly settings: QuorumControllerSettings;
  readonly nodeId: number;
  private readonly core: ControllerCore;
  private readonly ticks: ControllerTicks;
  private readonly activation: ActivationHooks;
  private draining: Promise<void> | undefined;
  private readonly background = new Set<Promise<void>>();

  constructor(private readonly options: QuorumControllerOptions) {
    this.settings = options.settings;
    this.nodeId = options.raft.nodeId;
    const loader = new MetadataLoader({
      nowMs: options.clock.monotonicMs(),
      maxBytesBetweenSnapshots: options.settings.maxBytesBetweenSnapshots,
      maxSnapshotIntervalMs: options.settings.maxSnapshotIntervalMs,
    });
    const hookElections: ControllerCore["hookElections"] = [];
    this.core = {
      options,
      nodeId: this.nodeId,
      loader,
      metrics: new ControllerMetrics(options.metrics),
      hooks: electionPartitionHooks(options.settings.replication, (report) => {
        hookElections.push(report);
      }),
      hookElections,
      queue: [],
      pending: new PendingCompletions(),
      state: { kind: "inactive", leader: options.raft.leaderAndEpoch() },
      latest: loader.image,
      heartbeats: BrokerHeartbeats.EMPTY,
      nextWriteOffset: 0,
      lastCommittedOffset: -1,
      generation: 0,
      proposalsInFlight: 0,
      isStopped: false,
    };
    this.core.metrics.setActive(false);
    this.ticks = new ControllerTicks(this, options);
    this.activation = {
      track: (work) => this.track(work),
      activated: () => {
        this.ticks.activated();
        this.pump();
      },
    };
    options.raft.registerListener(this);
    this.ticks.start();
    this.handleLeaderChange(options.raft.leaderAndEpoch());
  }

  /** Where the controller stands. */
  get currentState(): ControllerState {
    return this.core.state;
  }

  /** True while this node serves as the active controller. */
  get isActive(): boolean {
    return this.core.state.kind === "active";
  }

  /** The active controller as far as this node knows, or null. */
  get activeControllerId(): number | null {
    const state = this.core.state;
    return state.kind === "inactive" ? state.leader.leaderId : this.nodeId;
  }

  /** The image of everything committed and replayed. */
  get committedImage(): MetadataImage {
    return this.core.loader.image;
  }

  /** The committed image plus every write proposed and not committed yet. */
  get latestImage(): MetadataImage {
    return this.core.latest;
  }

  /** The soft state of broker contacts (empty unless active). */
  get brokerHeartbeats(): BrokerHeartbeats {
    return this.core.heartbeats;
  }

  /** The loader of the committed image, for the snapshot decision of the ticks. */
  get metadataLoader(): MetadataLoader {
    return this.core.loader;
  }

  /**
   * Queues an operation and resolves with its response: the computed one once its batch (or,
   * for a read or a write of no records, every earlier batch) commits, or the operation's
   * refusal. Rejects only when the operation's computation threw.
   */
  submit<Response>(operation: ControllerOperation<Response>): Promise<Response> {
    const core = this.core;
    return new Promise<Response>((resolve, reject) => {
      const entry: QueuedEntry = {
        operation,
        enqueuedAtMs: this.options.clock.monotonicMs(),
        resolve: (response) => resolve(response as Response),
        reject,
      };
      if (core.isStopped || core.state.kind === "inactive") {
        refuse(core, entry, notControllerRefusal(knownLeaderId(core)));
      } else if (core.queue.length >= this.settings.queuedOperationsMax) {
        refuse(core, entry, queueFullRefusal(knownLeaderId(core)));
      } else {
        core.queue.push(entry);
        updateQueueMetric(core);
        this.pump();
      }
    });
  }

  /** Stops timers, refuses everything waiting, and waits for work under way to end. */
  async stop(): Promise<void> {
    if (this.core.isStopped) return;
    this.core.isStopped = true;
    this.ticks.stop();
    if (this.core.state.kind !== "inactive") this.renounce("the controller stops");
    this.failQueued();
    await this.draining;
    await Promise.all([...this.background]);
  }

  /** Raft: a committed batch. Completes the answers it covers; may finish an activation. */
  handleCommit(batch: CommittedBatch): void {
    const core = this.core;
    core.loader.handleCommit(batch);
    core.lastCommittedOffset = batch.lastOffset;
    core.metrics.updateFencedBrokers(core.loader.image);
    if (core.state.kind !== "inactive" && batch.epoch > core.state.epoch) {
      this.renounce(`a batch of the later epoch ${batch.epoch} committed`);
      return;
    }
    core.pending.completeThrough(batch.lastOffset);
    maybeCatchUpLatest(core);
    maybeFinishActivation(core, this.activation);
    updateQueueMetric(core);
  }

  /** Raft: a snapshot replaces the committed state. Only a follower loads one. */
  handleLoadSnapshot(snapshot: LoadedSnapshot): void {
    const core = this.core;
    core.loader.handleLoadSnapshot(snapshot);
    core.lastCommittedOffset = Math.max(
      core.lastCommittedOffset,
      snapshot.snapshotId.endOffset - 1,
    );
    core.metrics.updateFencedBrokers(core.loader.image);
    if (core.state.kind !== "inactive") this.renounce("a snapshot was loaded while leading");
    maybeCatchUpLatest(core);
  }

  /** Raft: a new leader or epoch. */
  handleLeaderChange(change: LeaderAndEpoch): void {
    const state = this.core.state;
    if (change.leaderId === this.nodeId && !this.core.isStopped) {
      if (state.kind !== "inactive" && state.epoch === change.epoch) return;
      if (state.kind !== "inactive") this.renounce(`epoch ${change.epoch} began`);
      beginActivation(this.core, this.activation, change.epoch);
      return;
    }
    if (state.kind !== "inactive") {
      this.renounce(`node ${change.leaderId ?? "unknown"} leads epoch ${change.epoch}`);
    }
    this.core.state = { kind: "inactive", leader: change };
  }

  /** Proposes the current activation step again if its last proposal was refused (the ticks). */
  retryActivation(): void {
    const state = this.core.state;
    if (state.kind !== "activating" || state.awaitedOffset !== undefined) return;
    if (this.core.proposalsInFlight > 0) return;
    proposeActivation(this.core, this.activation, state.epoch, state.step);
  }

  /** Runs `work` in the background; stop waits for it. Failures other than asserts are logged. */
  track(work: Promise<void>): void {
    const tracked: Promise<void> = work
      .catch((error: unknown) => {
        if (error instanceof AssertionError) throw error;
        this.options.logger.error("controller background work failed", { error: String(error) });
      })
      .finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  /**
   * Gives up the active role: every queued and uncommitted operation fails with NOT_CONTROLLER
   * and the in-memory image reverts to the committed one.
   */
  private renounce(reason: string): void {
    const core = this.core;
    core.generation += 1;
    core.state = { kind: "inactive", leader: this.options.raft.leaderAndEpoch() };
    const failed = core.pending.failAll() + this.failQueued();
    core.latest = core.loader.image;
    core.heartbeats = BrokerHeartbeats.EMPTY;
    core.hookElections.length = 0;
    core.metrics.setActive(false);
    updateQueueMetric(core);
    this.options.logger.warn("no longer the active controller", { reason, failed });
  }

  private failQueued(): number {
    const queued = this.core.queue.splice(0, this.core.queue.length);
    for (const entry of queued)
      refuse(this.core, entry, notControllerRefusal(knownLeaderId(this.core)));
    return queued.length;
  }

  private pump(): void {
    if (this.draining !== undefined || this.core.isStopped) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  private async drain(): Promise<void> {
    const core = this.core;
    while (!core.isStopped && core.state.kind !== "activating") {
      const entry = core.queue.shift();
      if (entry === undefined) return;
      updateQueueMetric(core);
      if (core.state.kind !== "active") {
        refuse(core, entry, notControllerRefusal(knownLeaderId(core)));
        continue;
      }
      const operation = entry.operation;
      if (operation.kind === "read") {
        answerAfterEarlierWrites(core, entry, () => operation.compute(readContext(core)));
      } else {
        await runWrite(core, entry, operation);
      }
    }
  }
}
