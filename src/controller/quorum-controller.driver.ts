/**
 * The quorum controller (Kafka's QuorumController); this file owns one state machine: the
 * controller's role, its queue of operations, the answers that wait for commits and its timer.
 * Writes compute records from the latest in-memory image, are proposed to Raft as one atomic
 * batch each, and are answered when that batch commits; reads are answered from the committed
 * image once every earlier write committed, so a client reads its own writes. The committed
 * image is replayed from what Raft delivers (a MetadataLoader of the controller's own).
 *
 * States and transitions:
 *
 *   inactive ──Raft elects this node──▶ activating ──its activation commits──▶ active
 *      ▲                                    │                                    │
 *      └──── another leader, or a later epoch's batch commits, or stop ──────────┘
 *
 * Inactive: every operation is refused with NOT_CONTROLLER, naming the known leader; a stopped
 * controller stays inactive. Activating: the controller proposes the claim of its epoch and, on
 * an empty log, the bootstrap records (quorum/activation.ts), each once the one before
 * committed; operations wait in the queue. Active: operations run in queue order. Leaving
 * activating or active fails every queued and uncommitted operation with NOT_CONTROLLER and
 * reverts the in-memory image to the committed one.
 *
 * A proposal Raft refuses fails its operation and changes nothing: the latest image, the soft
 * state of broker contacts and the elections it computed are dropped. One refused for its
 * `requiredBaseOffset` also moves the expected offset to the log's, so the broker's retried
 * registration lands.
 *
 * One timer, every `livenessScanIntervalMs`, queues the periodic writes of the active controller
 * (quorum/periodic-schedule.ts), proposes again an activation batch that Raft refused, and asks
 * Raft for a metadata snapshot once the loader says one is due, so within one tick of it: on
 * every node, active or not, since each voter snapshots its own copy of the log.
 */
import { AssertionError } from "../common/index.js";
import { imageToRecords, MetadataLoader } from "../metadata/index.js";
import type { CommittedBatch, LoadedSnapshot, MetadataImage } from "../metadata/index.js";
import type { Crypto, Timer } from "../ports/index.js";
import { encodeMetadataRecord } from "../protocol/index.js";
import { BrokerHeartbeats, heartbeatsAfterActivation, imageAfter } from "./cluster/index.js";
import type { PartitionHooks } from "./cluster/index.js";
import { electionPartitionHooks, logElection } from "./election/index.js";
import type { ElectionReport } from "./election/index.js";
import { activationRecords, stepAfter } from "./quorum/activation.js";
import type { ActivationStep } from "./quorum/activation.js";
import { ControllerMetrics } from "./quorum/controller-metrics.js";
import type {
  ControllerProposeOptions,
  ControllerProposeResult,
  ControllerRaftListener,
  LeaderAndEpoch,
} from "./quorum/controller-raft.js";
import type { QuorumControllerOptions } from "./quorum/controller-options.js";
import type { QuorumControllerSettings } from "./quorum/controller-settings.js";
import type {
  ControllerOperation,
  ControllerRefusal,
  ReadContext,
  WriteContext,
  WriteOperation,
} from "./quorum/operation.js";
import { PendingCompletions } from "./quorum/pending-completions.js";
import { leaderRebalanceOperation, livenessScanOperation } from "./quorum/periodic-operations.js";
import { PeriodicSchedule } from "./quorum/periodic-schedule.js";
import {
  notControllerRefusal,
  proposalRefusal,
  queueFullRefusal,
  refusalLeaderId,
} from "./quorum/refusals.js";

export type { QuorumControllerOptions };

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

export class QuorumController implements ControllerRaftListener {
  readonly settings: QuorumControllerSettings;
  readonly nodeId: number;
  private readonly loader: MetadataLoader;
  readonly metrics: ControllerMetrics;
  private readonly hooks: PartitionHooks;
  /** Elections the partition hooks reported while computing the current write. */
  private readonly hookElections: ElectionReport[] = [];
  private readonly queue: QueuedEntry[] = [];
  private readonly pending = new PendingCompletions();
  private readonly schedule: PeriodicSchedule;
  private readonly background = new Set<Promise<void>>();
  private state: ControllerState;
  private latest: MetadataImage;
  private heartbeats = BrokerHeartbeats.EMPTY;
  /** The offset the next proposed batch is expected to start at. */
  private nextWriteOffset = 0;
  private lastCommittedOffset = -1;
  /** Bumped whenever leadership is claimed or lost, so late proposal answers are recognised. */
  private generation = 0;
  private proposalsInFlight = 0;
  private isStopped = false;
  private isSnapshotting = false;
  private timer: Timer | undefined;
  private draining: Promise<void> | undefined;

  constructor(private readonly options: QuorumControllerOptions) {
    this.settings = options.settings;
    this.nodeId = options.raft.nodeId;
    this.loader = new MetadataLoader({
      nowMs: options.clock.monotonicMs(),
      maxBytesBetweenSnapshots: options.settings.maxBytesBetweenSnapshots,
      maxSnapshotIntervalMs: options.settings.maxSnapshotIntervalMs,
    });
    this.metrics = new ControllerMetrics(options.metrics);
    this.hooks = electionPartitionHooks(options.settings.replication, (report) => {
      this.hookElections.push(report);
    });
    this.schedule = new PeriodicSchedule(options.settings.leaderRebalance);
    this.state = { kind: "inactive", leader: options.raft.leaderAndEpoch() };
    this.latest = this.loader.image;
    this.metrics.setActive(false);
    options.raft.registerListener(this);
    this.arm();
    this.handleLeaderChange(options.raft.leaderAndEpoch());
  }

  get currentState(): ControllerState {
    return this.state;
  }

  get isActive(): boolean {
    return this.state.kind === "active";
  }

  /** This node while it activates or serves, else the leader Raft names (null if none). */
  get activeControllerId(): number | null {
    const state = this.state;
    return state.kind === "inactive" ? state.leader.leaderId : this.nodeId;
  }

  get crypto(): Crypto | undefined {
    return this.options.crypto;
  }

  get committedImage(): MetadataImage {
    return this.loader.image;
  }

  /** The committed image plus every write proposed and not committed yet. */
  get latestImage(): MetadataImage {
    return this.latest;
  }

  /** The soft state of broker contacts; empty unless active. */
  get brokerHeartbeats(): BrokerHeartbeats {
    return this.heartbeats;
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
        this.refuse(entry, queueFullRefusal(this.knownLeaderId()));
      } else {
        this.queue.push(entry);
        this.updateQueueMetric();
        this.pump();
      }
    });
  }

  /** Stops the timer, refuses everything waiting, and waits for work under way to end. */
  async stop(): Promise<void> {
    if (this.isStopped) return;
    this.isStopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    if (this.state.kind !== "inactive") this.renounce("the controller stops");
    this.failQueued();
    await this.draining;
    await Promise.all([...this.background]);
  }

  /** Raft: a committed batch. Completes the answers it covers; may finish an activation. */
  handleCommit(batch: CommittedBatch): void {
    this.loader.handleCommit(batch);
    this.lastCommittedOffset = batch.lastOffset;
    this.metrics.updateFencedBrokers(this.loader.image);
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
    this.metrics.updateFencedBrokers(this.loader.image);
    if (this.state.kind !== "inactive") this.renounce("a snapshot was loaded while leading");
    this.maybeCatchUpLatest();
  }

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

  /**
   * Gives up the active role: every queued and uncommitted operation fails with NOT_CONTROLLER
   * and the in-memory image reverts to the committed one.
   */
  private renounce(reason: string): void {
    this.generation += 1;
    this.state = { kind: "inactive", leader: this.options.raft.leaderAndEpoch() };
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

  // The activation: the claim of the epoch, then on an empty log the bootstrap records.

  private beginActivation(epoch: number): void {
    this.generation += 1;
    this.latest = this.loader.image;
    this.options.logger.info("elected: activating the controller", { epoch });
    this.proposeActivation(epoch, "claim");
  }

  /** Proposes the batch of an activation step; its acceptance sets the offset to wait for. */
  private proposeActivation(epoch: number, step: ActivationStep): void {
    this.state = { kind: "activating", epoch, step, awaitedOffset: undefined };
    const generation = this.generation;
    const records = activationRecords(step, this.settings.bootstrap);
    const encoded = records.map((record) => encodeMetadataRecord(record));
    this.track(
      this.propose(encoded).then((proposed) => {
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

  /** Moves to the next step, or to active, once the awaited batch committed. */
  private maybeFinishActivation(): void {
    const state = this.state;
    if (state.kind !== "activating" || state.awaitedOffset === undefined) return;
    if (this.lastCommittedOffset < state.awaitedOffset) return;
    const next = stepAfter(state.step, this.loader.image);
    if (next === "bootstrap") {
      this.options.logger.info("the metadata log is empty: writing the bootstrap records");
      this.proposeActivation(state.epoch, next);
      return;
    }
    const nowMs = this.options.clock.monotonicMs();
    this.state = { kind: "active", epoch: state.epoch };
    this.latest = this.loader.image;
    this.heartbeats = heartbeatsAfterActivation(this.latest, nowMs);
    this.metrics.setActive(true);
    this.options.logger.info("the controller is active", { epoch: state.epoch });
    this.schedule.activated(nowMs);
    this.pump();
  }

  /** Proposes the current activation step again if Raft refused its last proposal. */
  private maybeRetryActivation(): void {
    const state = this.state;
    if (state.kind !== "activating" || state.awaitedOffset !== undefined) return;
    if (this.proposalsInFlight > 0) return;
    this.proposeActivation(state.epoch, state.step);
  }

  // The queue: one operation at a time, in order, while active.

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
        // The context is taken when the answer is due, so the read sees every earlier write.
        this.answerAfterEarlierWrites(entry, () => operation.compute(this.readContext()));
      } else {
        await this.runWrite(entry, operation);
      }
    }
  }

  /** Computes a write, proposes its records, and waits for their commit (or refuses). */
  private async runWrite(entry: QueuedEntry, operation: WriteOperation<unknown>): Promise<void> {
    const generation = this.generation;
    const context = this.writeContext();
    const result = this.computeSafely(entry, () => operation.compute(context));
    if (result === undefined) return;
    const elections = [...this.hookElections.splice(0), ...(result.elections ?? [])];
    if (result.records.length === 0) {
      if (result.heartbeats !== undefined) this.heartbeats = result.heartbeats;
      this.answerAfterEarlierWrites(entry, () => result.response);
      return;
    }
    const encoded = result.records.map((record) => encodeMetadataRecord(record));
    const required = { requiredBaseOffset: context.nextWriteOffset };
    const proposed = await this.propose(encoded, result.needsExactOffset === true ? required : {});
    if (generation !== this.generation) return this.refuse(entry, this.notController());
    if (proposed.kind === "refused") {
      if (proposed.reason === "offsetMismatch") {
        // The log holds records this controller did not propose (KRaft control records such as
        // a voters change), so its expected offset was stale; the retry will expect the real one.
        this.options.logger.warn("a batch that needed its offset was refused", {
          operation: operation.name,
          requiredBaseOffset: required.requiredBaseOffset,
          nextOffset: proposed.nextOffset,
        });
        this.nextWriteOffset = proposed.nextOffset;
      }
      return this.refuse(entry, proposalRefusal(proposed, this.knownLeaderId()));
    }
    if (result.heartbeats !== undefined) this.heartbeats = result.heartbeats;
    this.latest = imageAfter(this.latest, result.records);
    this.nextWriteOffset = proposed.lastOffset + 1;
    for (const report of elections) logElection(this.options.logger, this.latest, report);
    this.awaitCommit(entry, proposed.lastOffset, () => result.response);
  }

  /** Proposes records to Raft, counting the proposal as in flight until Raft answers. */
  private async propose(
    records: readonly Uint8Array[],
    options: ControllerProposeOptions = {},
  ): Promise<ControllerProposeResult> {
    this.proposalsInFlight += 1;
    try {
      return await this.options.raft.propose(records, options);
    } finally {
      this.proposalsInFlight -= 1;
    }
  }

  /** Runs an operation's computation; a throw (other than an assert) rejects its answer. */
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

  /** Answers once `offset` commits, or refuses with NOT_CONTROLLER if leadership is lost first. */
  private awaitCommit(entry: QueuedEntry, offset: number, responseOf: () => unknown): void {
    const complete = (): void => {
      const response = this.computeSafely(entry, responseOf);
      if (response !== undefined) this.answer(entry, response);
    };
    if (offset <= this.lastCommittedOffset) {
      complete();
    } else {
      const fail = (): void => this.refuse(entry, this.notController());
      this.pending.add({ offset, complete, fail });
    }
    this.maybeCatchUpLatest();
    this.updateQueueMetric();
  }

  /** With nothing uncommitted, the latest image is the committed one (and shares its maps). */
  private maybeCatchUpLatest(): void {
    if (this.pending.size === 0 && this.proposalsInFlight === 0) this.latest = this.loader.image;
  }

  /** Answers an operation, recording how long it took. */
  private answer(entry: QueuedEntry, response: unknown): void {
    const latencyMs = this.options.clock.monotonicMs() - entry.enqueuedAtMs;
    this.metrics.observeLatency(entry.operation.name, latencyMs);
    entry.resolve(response);
  }

  private refuse(entry: QueuedEntry, refusal: ControllerRefusal): void {
    this.answer(entry, entry.operation.refuse(refusal));
  }

  private notController(): ControllerRefusal {
    return notControllerRefusal(this.knownLeaderId());
  }

  private knownLeaderId(): number | null {
    const raftLeaderId = this.options.raft.leaderAndEpoch().leaderId;
    return refusalLeaderId(raftLeaderId, { nodeId: this.nodeId, isActive: this.isActive });
  }

  /** Publishes how many operations wait: queued plus waiting for their commit. */
  private updateQueueMetric(): void {
    this.metrics.setQueueLength(this.queue.length + this.pending.size);
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
      voterIds: this.options.raft.voterIds(),
      crypto: this.options.crypto,
    };
  }

  private readContext(): ReadContext {
    return { image: this.loader.image, settings: this.settings, nodeId: this.nodeId };
  }

  // The timer: periodic writes, activation retries and snapshots.

  private arm(): void {
    if (this.isStopped) return;
    this.timer = this.options.timers.schedule(this.settings.livenessScanIntervalMs, () =>
      this.tick(),
    );
  }

  private tick(): void {
    this.timer = undefined;
    if (this.isStopped) return;
    this.arm();
    const nowMs = this.options.clock.monotonicMs();
    this.maybeRetryActivation();
    if (this.isActive) {
      const due = this.schedule.dueOnTick(nowMs);
      if (due.scan) this.queueLivenessScan();
      if (due.rebalance) this.queueLeaderRebalance();
    }
    this.maybeSnapshot(nowMs);
  }

  private queueLivenessScan(): void {
    this.track(
      this.submit(livenessScanOperation())
        .finally(() => this.schedule.scanEnded())
        .then((outcome) => {
          if (outcome.kind === "scanned" && outcome.fencedBrokerIds.length > 0) {
            this.options.logger.warn("fenced brokers whose session ended", {
              brokerIds: outcome.fencedBrokerIds,
            });
          }
        }),
    );
  }

  private queueLeaderRebalance(): void {
    this.track(
      this.submit(leaderRebalanceOperation())
        .finally(() => this.schedule.rebalanceEnded())
        .then((outcome) => this.schedule.rebalanceChecked(outcome)),
    );
  }

  private maybeSnapshot(nowMs: number): void {
    if (this.isSnapshotting) return;
    const decision = this.loader.snapshotDecision(nowMs);
    if (decision.kind === "notDue") return;
    const image = decision.image;
    const records = imageToRecords(image).map((record) => encodeMetadataRecord(record));
    const endOffset = image.provenance.lastContainedOffset + 1;
    this.isSnapshotting = true;
    const request = { endOffset, lastContainedLogTimestamp: this.options.clock.nowMs(), records };
    this.track(
      this.options.raft
        .createSnapshot(request)
        .finally(() => {
          this.isSnapshotting = false;
        })
        .then((result) => {
          if (result.ok) {
            this.loader.snapshotWritten(this.options.clock.monotonicMs());
            this.options.logger.info("metadata snapshot written", {
              endOffset,
              reason: decision.reason,
            });
          } else {
            this.options.logger.warn("metadata snapshot not written", {
              endOffset,
              why: result.reason,
            });
          }
        }),
    );
  }

  /** Runs `work` in the background; stop waits for it. Failures other than asserts are logged. */
  private track(work: Promise<void>): void {
    const tracked: Promise<void> = work
      .catch((error: unknown) => {
        if (error instanceof AssertionError) throw error;
        this.options.logger.error("controller background work failed", { error: String(error) });
      })
      .finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }
}
