/**
 * The `ControllerRaft` of one simulated controller incarnation, over its RaftProcess: proposals
 * become inputs of the pure RaftNode in the process's turn, committed batches come from the
 * process's CommitFeed, and leader changes are told as src/raft's driver tells them (Kafka's
 * KafkaRaftClient too): a node hears that it leads only once its listener has every batch
 * before the epoch's first offset, so the controller activates on a complete image.
 */
import type {
  ControllerProposeOptions,
  ControllerProposeResult,
  ControllerRaft,
  ControllerRaftListener,
  ControllerSnapshotResult,
  LeaderAndEpoch,
} from "../../src/controller/index.js";
import type { CommittedBatch, LoadedSnapshot, MetadataListener } from "../../src/metadata/index.js";
import type { ProposeResult } from "../../src/raft/index.js";
import type { RaftProcess } from "../raft/raft-process.js";

/** The first offset of `epoch` in the log, or undefined while the log holds none of it. */
function epochStartOffset(process: RaftProcess, epoch: number): number | undefined {
  return process.visibleDisk.batches.find((batch) => batch.epoch === epoch)?.baseOffset;
}

/** A ControllerRaft over a simulated Raft process; one per process incarnation. */
export class SimControllerRaft implements ControllerRaft, MetadataListener {
  private readonly listeners: ControllerRaftListener[] = [];
  private notified: LeaderAndEpoch = { leaderId: null, epoch: 0 };

  constructor(private readonly process: RaftProcess) {}

  get nodeId(): number {
    return this.process.id;
  }

  voterIds(): readonly number[] {
    return this.process.node?.voterIds() ?? [];
  }

  /** Proposes in the process's turn, as a request would arrive: never inside another input. */
  propose(
    records: readonly Uint8Array[],
    options: ControllerProposeOptions = {},
  ): Promise<ControllerProposeResult> {
    const { leaderId, epoch } = this.notified;
    if (leaderId !== this.process.id) {
      return Promise.resolve({ kind: "refused", reason: "notLeader" });
    }
    return new Promise((resolve) => {
      this.process.later(0, "controller propose", () => {
        const answer: { result: ProposeResult } = {
          result: { kind: "refused", reason: "notLeader" },
        };
        this.process.input((node, nowMs) => {
          // A node that lost the epoch the controller was told of must not append for it.
          if (node.epoch !== epoch) return node.tick(nowMs);
          const proposed = node.propose(nowMs, records, options);
          answer.result = proposed.result;
          return proposed.output;
        });
        // src/raft's answer has the controller's shape, nextOffset of a mismatch included.
        resolve(answer.result);
      });
    });
  }

  leaderAndEpoch(): LeaderAndEpoch {
    return this.notified;
  }

  registerListener(listener: ControllerRaftListener): void {
    this.listeners.push(listener);
  }

  /**
   * The simulation writes the Raft layer's snapshots itself (sim/raft's snapshot writer, whose
   * files the checker verifies), so the controller's requests are declined.
   */
  createSnapshot(): Promise<ControllerSnapshotResult> {
    return Promise.resolve({ ok: false, reason: "the simulation writes the snapshots" });
  }

  /** The CommitFeed's listener side: committed batches go to every listener. */
  handleCommit(batch: CommittedBatch): void {
    for (const listener of this.listeners) listener.handleCommit(batch);
  }

  handleLoadSnapshot(snapshot: LoadedSnapshot): void {
    for (const listener of this.listeners) listener.handleLoadSnapshot(snapshot);
  }

  /**
   * Tells the listeners of a new leader or epoch once it may: at once for another leader; for
   * this node only when everything before its epoch was delivered (`deliveredEndOffset`).
   */
  maybeNotifyLeader(deliveredEndOffset: number): void {
    const node = this.process.node;
    if (node === null) return;
    const current: LeaderAndEpoch = { leaderId: node.leaderId, epoch: node.epoch };
    if (current.leaderId === this.notified.leaderId && current.epoch === this.notified.epoch) {
      return;
    }
    if (current.leaderId === this.process.id) {
      const start = epochStartOffset(this.process, current.epoch);
      if (start === undefined || deliveredEndOffset < start) return;
    }
    this.notified = current;
    for (const listener of this.listeners) listener.handleLeaderChange(current);
  }
}
