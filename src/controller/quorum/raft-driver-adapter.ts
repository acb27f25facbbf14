/**
 * Adapts src/raft's RaftDriver to ControllerRaft. The driver takes its listeners when it is
 * built, so the adapter is built first, passed to the driver as a listener (it fans every call
 * out to the listeners registered with it), and attached to the driver once that has started.
 * The driver is described structurally here, so this file depends on its shape, not its module.
 *
 * A leader change that comes before `attach` is held back until then: a single voter elects
 * itself while its driver starts, and a controller told of it at once would propose its
 * activation to no driver, be refused as notLeader, and activate only when a tick retries (never,
 * under timers that do not run by themselves).
 */
import { assert } from "../../common/index.js";
import type { CommittedBatch, LoadedSnapshot } from "../../metadata/index.js";
import type {
  ControllerProposeOptions,
  ControllerProposeResult,
  ControllerRaft,
  ControllerRaftListener,
  ControllerSnapshotRequest,
  ControllerSnapshotResult,
  LeaderAndEpoch,
} from "./controller-raft.js";

/** The part of RaftDriver the adapter uses. */
export interface RaftDriverSurface {
  readonly leaderId: number | null;
  readonly epoch: number;
  voterIds(): readonly number[];
  propose(
    records: readonly Uint8Array[],
    options: ControllerProposeOptions,
  ): Promise<ControllerProposeResult>;
  createSnapshot(
    request: ControllerSnapshotRequest,
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: string }>;
}

/** A ControllerRaft over a RaftDriver, and the RaftListener that feeds its listeners. */
export class RaftDriverAdapter implements ControllerRaft {
  private driver: RaftDriverSurface | undefined;
  private readonly listeners: ControllerRaftListener[] = [];
  /** The leader change the listeners were last told of. */
  private lastLeader: LeaderAndEpoch = { leaderId: null, epoch: 0 };
  /** The latest leader change received before `attach`, which delivers it. */
  private heldLeaderChange: LeaderAndEpoch | undefined;

  constructor(readonly nodeId: number) {}

  /**
   * Connects the started driver, then tells the listeners of a leader change held back until
   * now. Proposals before this are refused as "notLeader".
   */
  attach(driver: RaftDriverSurface): void {
    assert(this.driver === undefined, "a RaftDriverAdapter is attached once");
    this.driver = driver;
    const held = this.heldLeaderChange;
    this.heldLeaderChange = undefined;
    if (held !== undefined) this.deliverLeaderChange(held);
  }

  /**
   * Proposes through the driver, which refuses, writing nothing, a proposal that would not
   * start at `options.requiredBaseOffset`.
   */
  propose(
    records: readonly Uint8Array[],
    options: ControllerProposeOptions = {},
  ): Promise<ControllerProposeResult> {
    if (this.driver === undefined) return Promise.resolve({ kind: "refused", reason: "notLeader" });
    return this.driver.propose(records, options);
  }

  leaderAndEpoch(): LeaderAndEpoch {
    if (this.driver === undefined) return this.lastLeader;
    return { leaderId: this.driver.leaderId, epoch: this.driver.epoch };
  }

  voterIds(): readonly number[] {
    return this.driver === undefined ? [] : this.driver.voterIds();
  }

  registerListener(listener: ControllerRaftListener): void {
    this.listeners.push(listener);
  }

  createSnapshot(request: ControllerSnapshotRequest): Promise<ControllerSnapshotResult> {
    if (this.driver === undefined) {
      return Promise.resolve({ ok: false, reason: "the raft driver is not attached" });
    }
    return this.driver
      .createSnapshot(request)
      .then((result) => (result.ok ? { ok: true } : result));
  }

  /** RaftListener: a committed batch, handed to every registered listener. */
  handleCommit(batch: CommittedBatch): void {
    for (const listener of this.listeners) listener.handleCommit(batch);
  }

  /** RaftListener: a snapshot to load. */
  handleLoadSnapshot(snapshot: LoadedSnapshot): void {
    for (const listener of this.listeners) listener.handleLoadSnapshot(snapshot);
  }

  /** RaftListener: a new leader or epoch; before `attach`, held back until then. */
  handleLeaderChange(change: LeaderAndEpoch): void {
    if (this.driver === undefined) {
      this.heldLeaderChange = change;
      return;
    }
    this.deliverLeaderChange(change);
  }

  private deliverLeaderChange(change: LeaderAndEpoch): void {
    this.lastLeader = change;
    for (const listener of this.listeners) listener.handleLeaderChange(change);
  }
}
