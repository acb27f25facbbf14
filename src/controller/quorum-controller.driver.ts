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
 * operations wait in the queue (see quorum/activation.ts). Leaving activating or active fails
 * every queued and uncommitted operation with NOT_CONTROLLER and reverts the in-memory image to
 * the committed one. Timers (quorum/controller-ticks.driver.ts) run the liveness scan, the
 * leader rebalance and snapshots.
 */
import { AssertionError, ErrorCode } from "../common/index.js";
import { MetadataLoader } from "../metadata/index.js";
import type { CommittedBatch, LoadedSnapshot, MetadataImage } from "../metadata/index.js";
import type { Clock, Logger, MetricsSink, Random, Timers } from "../ports/index.js";
import { encodeMetadataRecord } from "../protocol/index.js";
import { BrokerHeartbeats, heartbeatsAfterActivation, imageAfter } from "./cluster/index.js";
import type { PartitionHooks } from "./cluster/index.js";
import { describeElection, electionPartitionHooks } from "./election/index.js";
import type { ElectionReport } from "./election/index.js";
import { activationRecords, stepAfterClaim } from "./quorum/activation.js";
import type { ActivationStep } from "./quorum/activation.js";
import type {
  ControllerProposeResult,
  ControllerRaft,
  ControllerRaftListener,
  LeaderAndEpoch,
} from "./quorum/controller-raft.js";
import { ControllerMetrics } from "./quorum/controller-metrics.js";
import type { QuorumControllerSettings } from "./quorum/controller-settings.js";
import { ControllerTicks } from "./quorum/controller-ticks.driver.js";
import type {
  ControllerOperation,
  ControllerRefusal,
  ReadContext,
  WriteContext,
  WriteOperation,
} from "./quorum/operation.js";
import { PendingCompletions } from "./quorum/pending-completions.js";

/** Everything a quorum controller is built from. */
export interface QuorumControllerOptions {
  readonly raft: ControllerRaft;
  readonly settings: QuorumControllerSettings;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
  readonly logger: Logger;
  readonly metrics: MetricsSink;
}

/** Where the controller stands; see the state diagram above. */
export type ControllerState =
  | { readonly kind: "inactive"; readonly leader: LeaderAndEpoch }
  | {
      readonly kind: "activating";
      readonly epoch: number;
      readonly step: ActivationStep;
      /** The last offset of the step's batch once proposed; undefined while not (yet) accepted. */
      readonly awaitedOffset: number | undefined;
    }
  | { readonly kind: "active"; readonly epoch: number };

/** An operation in the queue with the promise that waits for its answer. */
interface QueuedEntry {
  readonly operation: ControllerOperation<unknown>;
  readonly enqueuedAtMs: number;
  resolve(response: unknown): void;
  reject(error: unknown): void;
}

/** The quorum controller driver. */
export class QuorumController implements ControllerRaftListener {
  readonly settings: QuorumControllerSettings;
  readonly nodeId: number;
  private state: ControllerState;
  private readonly loader: MetadataLoader;
  private latest: MetadataImage;
  private heartbeats = BrokerHeartbeats.EMPTY;
  private nextWriteOffset = 0;
  private lastCommittedOffset = -1;
  /** Bumped whenever leadership is claimed or lost, so late proposal answers are recognised. */
  private generation = 0;
  private proposalsInFlight = 0;
  private readonly queue: QueuedEntry[] = [];
  private readonly pending = new PendingCompletions();
  private readonly hooks: PartitionHooks;
  private readonly hookElections: ElectionReport[] = [];
  private readonly metrics: ControllerMetrics;
  private readonly ticks: ControllerTicks;
  private draining: Promise<void> | undefined;
  private readonly background = new Set<Promise<void>>();
  private isStopped = false;

  constructor(private readonly options: QuorumControllerOptions) {
    this.settings = options.settings;
    this.nodeId = options.raft.nodeId;
    this.loader = new MetadataLoader({
      nowMs: options.clock.monotonicMs(),
      maxBytesBetweenSnapshots: options.settings.maxBytesBetweenSnapshots,
      maxSnapshotIntervalMs: options.settings.maxSnapshotIntervalMs,
    });
    this.latest = this.loader.image;
    this.hooks = electionPartitionHooks(options.settings.replication, (report) => {
      this.hookElections.push(report);
    });
    this.metrics = new ControllerMetrics(options.metrics);
    this.metrics.setActive(false);
    this.state = { kind: "inactive", leader: options.raft.leaderAndEpoch() };
    this.ticks = new ControllerTicks(this, options);
    options.raft.registerListener(this);
    this.ticks.start();
    this.handleLeaderChange(options.raft.leaderAndEpoch());
  }

  /** Where the controller stands. */
  get currentState(): ControllerState {
    return this.state;
  }

  /** True while this node serves as the active controller. */
  get isActive(): boolean {
    return this.state.kind === "active";
  }

  /** The active controller as far as this node knows, or null. */
  get activeControllerId(): number | null {
    return this.state.kind === "inactive" ? this.state.leader.leaderId : this.nodeId;
  }

  /** The image of everything committed and replayed. */
  get committedImage(): MetadataImage {
    return this.loader.image;
  }

  /** The committed image plus every write proposed and not committed yet. */
  get latestImage(): MetadataImage {
    return this.latest;
  }

  /** The soft state of broker contacts (empty unless active). */
  get brokerHeartbeats(): BrokerHeartbeats {
    return this.heartbeats;
  }

  /** The loader of the committed image, for the snapshot decision of the ticks. */
  get metadataLoader(): MetadataLoader {
    return this.loader;
  }

  /**
   * Queues an operation and resolves with its response: the computed one once its batch (or,
   * for a read or a write of no records, every earlier batch) commits, or the operation's
   * refusal. Rejects only when the operation's computation threw.
   */
  submit<Response>(operation: ControllerOperation<Response>): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      const entry: QueuedEntry = {
        operation,
        enqueuedAtMs: this.options.clock.monotonicMs(),
        resolve: (response) => resolve(response as Response),
        reject,
      };
      if (this.isStopped || this.state.kind === "inactive") {
        this.refuse(entry, this.notController());
      } else if (this.queue.length >= this.settings.queuedOperationsMax) {
        this.refuse(entry, this.refusal(ErrorCode.REQUEST_TIMED_OUT, "the controller is busy"));
      } else {
        this.queue.push(entry);
        this.updateQueueMetric();
        this.pump();
      }
    });
  }

  /** Stops timers, refuses everything waiting, and waits for work under way to end. */
  async stop(): Promise<void> {
    if (this.isStopped) return;
    this.isStopped = true;
    this.ticks.stop();
    if (this.state.kind !== "inactive") this.renounce("the controller stops");
    this.failQueued();
    await this.draining;
    await Promise.all([...this.background]);
  }

  /** Raft: a committed batch. Completes the answers it covers; may finish an activation. */
  handleCommit(batch: CommittedBatch): void {
    this.loader.handleCommit(batch);
    this.lastCommittedOffset = batch.lastOffset;
    this.metrics.setFencedBrokers(this.fencedBrokerCount());
    if (this.state.kind !== "inactive" && batch.epoch > this.state.epoch) {
      this.renounce(`a batch of the later epoch ${batch.epoch} committed`);
      return;
    }
    this.pending.completeThrough(batch.lastOffset);
    this.maybeCatchUpLatest();
    this.maybeFinishActivation();
    this.updateQueueMetric();
  }

  /** Raft: a snapshot replaces the committed state. Only a follower loads one. */
  handleLoadSnapshot(snapshot: LoadedSnapshot): void {
    this.loader.handleLoadSnapshot(snapshot);
    this.lastCommittedOffset = Math.max(
      this.lastCommittedOffset,
      snapshot.snapshotId.endOffset - 1,
    );
    this.metrics.setFencedBrokers(this.fencedBrokerCount());
    if (this.state.kind !== "inactive") this.renounce("a snapshot was loaded while leading");
    this.maybeCatchUpLatest();
  }

  /** Raft: a new leader or epoch. */
  handleLeaderChange(change: LeaderAndEpoch): void {
    const state = this.state;
    if (change.leaderId === this.nodeId && !this.isStopped) {
      if (state.kind !== "inactive" && state.epoch === change.epoch) return;
      if (state.kind !== "inactive") this.renounce(`epoch ${change.epoch} began`);
      this.beginActivation(change.epoch);
      return;
    }
    if (state.kind !== "inactive") {
      this.renounce(`node ${change.leaderId ?? "unknown"} leads epoch ${change.epoch}`);
    }
    this.state = { kind: "inactive", leader: change };
  }

  /** Proposes the current activation step again if its last proposal was refused (the ticks). */
  retryActivation(): void {
    const state = this.state;
    if (state.kind !== "activating" || state.awaitedOffset !== undefined) return;
    if (this.proposalsInFlight > 0) return;
    this.proposeActivation(state.epoch, state.step);
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

  private beginActivation(epoch: number): void {
    this.generation += 1;
    this.latest = this.loader.image;
    this.options.logger.info("elected: activating the controller", { epoch });
    this.proposeActivation(epoch, "claim");
  }

  private proposeActivation(epoch: number, step: ActivationStep): void {
    this.state = { kind: "activating", epoch, step, awaitedOffset: undefined };
    const generation = this.generation;
    const records = activationRecords(step, this.settings.bootstrap);
    this.track(
      this.propose(records.map((record) => encodeMetadataRecord(record))).then((proposed) => {
        if (generation !== this.generation) return;
        if (proposed.kind === "refused") {
          this.options.logger.warn("activation batch refused", { step, reason: proposed.reason });
          return;
        }
        this.nextWriteOffset = proposed.lastOffset + 1;
        this.state = { kind: "activating", epoch, step, awaitedOffset: proposed.lastOffset };
        this.maybeFinishActivation();
      }),
    );
  }

  private maybeFinishActivation(): void {
    const state = this.state;
    if (state.kind !== "activating" || state.awaitedOffset === undefined) return;
    if (this.lastCommittedOffset < state.awaitedOffset) return;
    if (state.step === "claim" && stepAfterClaim(this.loader.image) === "bootstrap") {
      this.options.logger.info("the metadata log is empty: writing the bootstrap records");
      this.proposeActivation(state.epoch, "bootstrap");
      return;
    }
    this.state = { kind: "active", epoch: state.epoch };
    this.latest = this.loader.image;
    this.heartbeats = heartbeatsAfterActivation(this.latest, this.options.clock.monotonicMs());
    this.metrics.setActive(true);
    this.ticks.activated();
    this.options.logger.info("the controller is active", { epoch: state.epoch });
    this.pump();
  }

  /**
   * Gives up the active role: every queued and uncommitted operation fails with NOT_CONTROLLER
   * and the in-memory image reverts to the committed one.
   */
  private renounce(reason: string): void {
    this.generation += 1;
    const leader = this.options.raft.leaderAndEpoch();
    this.state = { kind: "inactive", leader };
    const failed = this.pending.failAll() + this.failQueued();
    this.latest = this.loader.image;
    this.heartbeats = BrokerHeartbeats.EMPTY;
    this.hookElections.length = 0;
    this.metrics.setActive(false);
    this.updateQueueMetric();
    this.options.logger.warn("no longer the active controller", { reason, failed });
  }

  private failQueued(): number {
    const queued = this.queue.splice(0, this.queue.length);
    for (const entry of queued) this.refuse(entry, this.notController());
    return queued.length;
  }

  private pump(): void {
    if (this.draining !== undefined || this.isStopped) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  private async drain(): Promise<void> {
    while (!this.isStopped && this.state.kind !== "activating") {
      const entry = this.queue.shift();
      if (entry === undefined) return;
      this.updateQueueMetric();
      if (this.state.kind !== "active") {
        this.refuse(entry, this.notController());
        continue;
      }
      const operation = entry.operation;
      if (operation.kind === "read") {
        this.answerAfterEarlierWrites(entry, () => operation.compute(this.readContext()));
      } else {
        await this.runWrite(entry, operation);
      }
    }
  }

  private async runWrite(entry: QueuedEntry, operation: WriteOperation<unknown>): Promise<void> {
    const generation = this.generation;
    const context = this.writeContext();
    const result = this.computeSafely(entry, () => operation.compute(context));
    if (result === undefined) return;
    if (result.heartbeats !== undefined) this.heartbeats = result.heartbeats;
    const elections = [...this.hookElections.splice(0), ...(result.elections ?? [])];
    if (result.records.length === 0) {
      this.answerAfterEarlierWrites(entry, () => result.response);
      return;
    }
    const encoded = result.records.map((record) => encodeMetadataRecord(record));
    const requiredBaseOffset = context.nextWriteOffset;
    const proposed = await this.propose(
      encoded,
      result.needsExactOffset === true ? { requiredBaseOffset } : {},
    );
    if (generation !== this.generation) return this.refuse(entry, this.notController());
    if (proposed.kind === "refused") return this.refuse(entry, this.proposalRefusal(proposed));
    this.latest = imageAfter(this.latest, result.records);
    this.nextWriteOffset = proposed.lastOffset + 1;
    for (const report of elections) this.options.logger.info(describeElection(report));
    if (result.needsExactOffset === true && proposed.baseOffset !== requiredBaseOffset) {
      this.options.logger.error("a batch that needed its offset got another", {
        operation: operation.name,
        requiredBaseOffset,
        baseOffset: proposed.baseOffset,
      });
      return this.refuse(entry, this.notController());
    }
    this.awaitCommit(entry, proposed.lastOffset, () => result.response);
  }

  private async propose(
    records: readonly Uint8Array[],
    options: { readonly requiredBaseOffset?: number } = {},
  ): Promise<ControllerProposeResult> {
    this.proposalsInFlight += 1;
    try {
      return await this.options.raft.propose(records, options);
    } finally {
      this.proposalsInFlight -= 1;
    }
  }

  private computeSafely<Result>(entry: QueuedEntry, compute: () => Result): Result | undefined {
    try {
      return compute();
    } catch (error) {
      if (error instanceof AssertionError) throw error;
      this.hookElections.length = 0;
      this.options.logger.error("controller operation failed", {
        operation: entry.operation.name,
        error: String(error),
      });
      entry.reject(error);
      return undefined;
    }
  }

  /** Answers once everything written so far commits (at once when it has). */
  private answerAfterEarlierWrites(entry: QueuedEntry, responseOf: () => unknown): void {
    this.awaitCommit(entry, this.nextWriteOffset - 1, responseOf);
  }

  private awaitCommit(entry: QueuedEntry, offset: number, responseOf: () => unknown): void {
    const complete = (): void => {
      const response = this.computeSafely(entry, responseOf);
      if (response !== undefined) this.answer(entry, response);
    };
    if (offset <= this.lastCommittedOffset) {
      complete();
    } else {
      this.pending.add({ offset, complete, fail: () => this.refuse(entry, this.notController()) });
    }
    this.maybeCatchUpLatest();
    this.updateQueueMetric();
  }

  /** With nothing uncommitted, the latest image is the committed one (and shares its maps). */
  private maybeCatchUpLatest(): void {
    if (this.pending.size === 0 && this.proposalsInFlight === 0) this.latest = this.loader.image;
  }

  private answer(entry: QueuedEntry, response: unknown): void {
    this.metrics.observeLatency(
      entry.operation.name,
      this.options.clock.monotonicMs() - entry.enqueuedAtMs,
    );
    entry.resolve(response);
  }

  private refuse(entry: QueuedEntry, refusal: ControllerRefusal): void {
    this.answer(entry, entry.operation.refuse(refusal));
  }

  private refusal(errorCode: number, errorMessage: string): ControllerRefusal {
    return { errorCode, errorMessage, leaderId: this.activeControllerIdOrNull() };
  }

  private activeControllerIdOrNull(): number | null {
    const leaderId = this.options.raft.leaderAndEpoch().leaderId;
    return leaderId === this.nodeId && this.state.kind !== "active" ? null : leaderId;
  }

  private notController(): ControllerRefusal {
    const leaderId = this.activeControllerIdOrNull();
    const known = leaderId === null ? "not known" : `node ${leaderId}`;
    return this.refusal(ErrorCode.NOT_CONTROLLER, `the active controller is ${known}`);
  }

  private proposalRefusal(proposed: { readonly reason: string }): ControllerRefusal {
    switch (proposed.reason) {
      case "throttled":
        return this.refusal(ErrorCode.REQUEST_TIMED_OUT, "the metadata log is busy");
      case "tooLarge":
        return this.refusal(ErrorCode.INVALID_REQUEST, "the change does not fit in one batch");
      default:
        return this.notController();
    }
  }

  private writeContext(): WriteContext {
    return {
      image: this.latest,
      heartbeats: this.heartbeats,
      nowMs: this.options.clock.monotonicMs(),
      nextWriteOffset: this.nextWriteOffset,
      random: this.options.random,
      hooks: this.hooks,
      settings: this.settings,
      nodeId: this.nodeId,
    };
  }

  private readContext(): ReadContext {
    return { image: this.loader.image, settings: this.settings, nodeId: this.nodeId };
  }

  private fencedBrokerCount(): number {
    let count = 0;
    for (const broker of this.loader.image.cluster.brokers.values()) if (broker.isFenced) count++;
    return count;
  }

  private updateQueueMetric(): void {
    this.metrics.setQueueLength(this.queue.length + this.pending.size);
  }
}
