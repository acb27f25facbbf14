/**
 * The Raft simulation's checker. It sees every output of every node as the driver applies it
 * and throws an InvariantViolation naming the invariant the moment one fails:
 *
 * - at most one leader per epoch, over the whole run;
 * - committed entries (below a leader's announced high watermark) never change or go missing:
 *   each is recorded once (offsets, epoch, bytes hash, the committing leader's epoch) and every
 *   later sighting must agree: a follower's log below its high watermark, the log of a leader
 *   of a later epoch, a durable log after a crash, every snapshot's state digest;
 * - a node's high watermark never moves backwards within one incarnation;
 * - at the end, every live voter and observer holds the whole committed history durably.
 */
import { InvariantViolation } from "../workloads/registry.js";
import type { RaftNode } from "../../src/raft/index.js";
import type { DiskState, StoredBatch, StoredSnapshot } from "./disk-state.js";
import { batchHash, chainDigest, EMPTY_DIGEST, snapshotDigest } from "./state-digest.js";

/** What the checker reads of one simulated controller. */
export interface CheckedReplica {
  readonly id: number;
  readonly incarnation: number;
  /** The node of the current incarnation (null while the process is down). */
  readonly node: RaftNode | null;
  /** The disk as the process sees it. */
  readonly visibleDisk: DiskState;
  /** The disk as a crash would leave it, at least. */
  readonly durableDisk: DiskState;
}

interface CommittedBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  readonly hash: string;
  /** The epoch of the leader whose high watermark committed the batch. */
  readonly commitEpoch: number;
}

interface ReplicaProgress {
  readonly incarnation: number;
  highWatermark: number;
  verifiedUpTo: number;
  checkedLeaderEpoch: number;
}

/** The recorded history of one run and the checks against it. */
export class RaftChecker {
  private readonly leaders = new Map<number, number>();
  private readonly committed: CommittedBatch[] = [];
  private readonly indexByBase = new Map<number, number>();
  private readonly digestAt = new Map<number, string>([[0, EMPTY_DIGEST]]);
  private readonly progress = new Map<number, ReplicaProgress>();
  private endOffset = 0;

  /** The offset after the last committed record. */
  get committedEndOffset(): number {
    return this.committed.length === 0 ? 0 : this.endOffset;
  }

  /** How many leaders were elected over the run. */
  get electedLeaderCount(): number {
    return this.leaders.size;
  }

  /** True when the record at `offset` is committed and was written in `epoch`. */
  isCommitted(offset: number, epoch: number): boolean {
    if (offset >= this.endOffset) return false;
    let low = 0;
    let high = this.committed.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.committed[middle] as CommittedBatch).lastOffset < offset) low = middle + 1;
      else high = middle;
    }
    return this.committed[low]?.epoch === epoch;
  }

  /** The high watermark `replica` announced in its current incarnation. */
  announcedHighWatermark(replica: CheckedReplica): number {
    return this.progressOf(replica).highWatermark;
  }

  /** Checks made after each input a node handled: one leader per epoch, complete leaders. */
  afterInput(replica: CheckedReplica): void {
    const node = replica.node;
    if (node === null || node.state.kind !== "leader") return;
    const epoch = node.epoch;
    const leader = this.leaders.get(epoch);
    if (leader !== undefined && leader !== replica.id) {
      this.fail("one leader per epoch", `n${leader} and n${replica.id} both lead epoch ${epoch}`);
    }
    this.leaders.set(epoch, replica.id);
    const progress = this.progressOf(replica);
    if (progress.checkedLeaderEpoch === epoch) return;
    progress.checkedLeaderEpoch = epoch;
    // Leader completeness binds a leader to what leaders of earlier epochs committed: a node
    // that won an older epoch late (its vote grants held by a pause while a newer epoch
    // committed more) leads it without the newer entries, and can commit nothing in it.
    const end = this.committedEndBefore(epoch);
    this.checkHoldsCommitted(replica, replica.visibleDisk, `leader of epoch ${epoch}`, end);
  }

  /**
   * A node announced a high watermark. It must not go back; the log below it must agree with
   * the committed history, and a leader's announcement commits the batches below it.
   */
  highWatermarkMoved(replica: CheckedReplica, highWatermark: number): void {
    const progress = this.progressOf(replica);
    if (highWatermark < progress.highWatermark) {
      this.fail(
        "the high watermark never moves backwards",
        `n${replica.id} went from ${progress.highWatermark} to ${highWatermark}`,
      );
    }
    progress.highWatermark = highWatermark;
    const node = replica.node;
    const commitEpoch = node !== null && node.state.kind === "leader" ? node.epoch : null;
    const state = replica.visibleDisk;
    const from = Math.max(progress.verifiedUpTo, state.logStartOffset);
    for (let index = state.firstBatchAtOrAfter(from); index < state.batches.length; index++) {
      const batch = state.batches[index] as StoredBatch;
      if (batch.lastOffset >= highWatermark) break;
      if (batch.baseOffset < from) continue;
      this.checkBatch(replica.id, batch, commitEpoch);
      progress.verifiedUpTo = batch.lastOffset + 1;
    }
  }

  /** A snapshot appeared on a node (written there or installed): it holds committed state. */
  snapshotAppeared(replica: CheckedReplica, snapshot: StoredSnapshot): void {
    const endOffset = snapshot.snapshotId.endOffset;
    const expected = this.digestAt.get(endOffset);
    if (endOffset > this.committedEndOffset || expected === undefined) {
      this.fail(
        "snapshots hold committed state only",
        `n${replica.id} has snapshot ${endOffset}-${snapshot.snapshotId.epoch}, committed end ` +
          `${this.committedEndOffset}`,
      );
    }
    if (snapshotDigest(snapshot.bytes) !== expected) {
      this.fail(
        "committed entries are never lost or changed",
        `n${replica.id} snapshot ${endOffset} holds another state than the committed one`,
      );
    }
  }

  /**
   * After a crash: what survived on disk agrees with the committed history below the high
   * watermark the node had announced (beyond it, a log may hold entries of an older epoch that
   * were never committed and that a leader will have it truncate).
   */
  afterCrash(replica: CheckedReplica, highWatermark: number): void {
    const state = replica.durableDisk;
    for (const snapshot of state.snapshots.values()) this.snapshotAppeared(replica, snapshot);
    for (const batch of state.batches) {
      if (batch.lastOffset >= highWatermark) break;
      this.checkBatch(replica.id, batch, null);
    }
  }

  /** True when every live node's high watermark reached the committed end. */
  isConverged(replicas: readonly CheckedReplica[]): boolean {
    const end = this.committedEndOffset;
    return replicas.every(
      (replica) =>
        replica.node === null ||
        ((replica.node.highWatermark ?? 0) >= end && replica.durableDisk.endOffset() >= end),
    );
  }

  /** The end of a run: every live node holds the committed history durably and knows it. */
  checkConverged(replicas: readonly CheckedReplica[]): void {
    for (const replica of replicas) {
      const node = replica.node;
      if (node === null) continue;
      const highWatermark = node.highWatermark ?? 0;
      if (highWatermark < this.committedEndOffset) {
        this.fail(
          "every committed entry reaches every live node",
          `n${replica.id} (${node.state.kind} epoch ${node.epoch} leader ${node.leaderId} ` +
            `log end ${node.logEndOffset}) has high watermark ${highWatermark} < ` +
            `${this.committedEndOffset}`,
        );
      }
      const end = this.committedEndOffset;
      this.checkHoldsCommitted(replica, replica.durableDisk, "live node at the end", end);
    }
  }

  /** The end of what leaders of epochs before `epoch` committed. */
  private committedEndBefore(epoch: number): number {
    let index = this.committed.length - 1;
    while (index >= 0 && (this.committed[index] as CommittedBatch).commitEpoch >= epoch) index--;
    return index < 0 ? 0 : (this.committed[index] as CommittedBatch).lastOffset + 1;
  }

  /** `state` holds the committed history up to `requiredEnd`, unchanged. */
  private checkHoldsCommitted(
    replica: CheckedReplica,
    state: DiskState,
    role: string,
    requiredEnd: number,
  ): void {
    const who = `n${replica.id} (${role})`;
    const latest = state.latestSnapshot();
    if (latest !== undefined) this.snapshotAppeared(replica, latest);
    const coveredBySnapshot = latest?.snapshotId.endOffset ?? 0;
    if (state.logStartOffset > coveredBySnapshot) {
      this.fail("committed entries are never lost", `${who} log starts past its snapshot`);
    }
    if (state.endOffset() < requiredEnd) {
      this.fail(
        "committed entries are never lost",
        `${who} log ends at ${state.endOffset()}, committed end ${requiredEnd}`,
      );
    }
    for (const batch of state.batches) {
      if (batch.baseOffset >= requiredEnd) break;
      if (batch.baseOffset >= coveredBySnapshot) this.checkBatch(replica.id, batch, null);
    }
  }

  /** Checks `batch` against the history; `commitEpoch` is the epoch of a leader committing it. */
  private checkBatch(id: number, batch: StoredBatch, commitEpoch: number | null): void {
    const index = this.indexByBase.get(batch.baseOffset);
    const hash = batchHash(batch.bytes);
    if (index !== undefined) {
      const known = this.committed[index] as CommittedBatch;
      if (
        known.lastOffset !== batch.lastOffset ||
        known.epoch !== batch.epoch ||
        known.hash !== hash
      ) {
        this.fail(
          "committed entries are never lost or changed",
          `n${id} holds ${describe(batch.baseOffset, batch.lastOffset, batch.epoch)} where ` +
            `${describe(known.baseOffset, known.lastOffset, known.epoch)} (${known.hash}) ` +
            `was committed`,
        );
      }
      return;
    }
    if (batch.baseOffset < this.endOffset) {
      this.fail(
        "committed entries are never lost or changed",
        `n${id} holds ${describe(batch.baseOffset, batch.lastOffset, batch.epoch)} across ` +
          `committed batch boundaries`,
      );
    }
    if (commitEpoch === null) {
      this.fail(
        "logs match up to the high watermark",
        `n${id} counts ${describe(batch.baseOffset, batch.lastOffset, batch.epoch)} as ` +
          `committed, which no leader committed`,
      );
    }
    if (batch.baseOffset !== this.endOffset) {
      this.fail("committed history has no gaps", `n${id} commits from ${batch.baseOffset}`);
    }
    this.record({
      baseOffset: batch.baseOffset,
      lastOffset: batch.lastOffset,
      epoch: batch.epoch,
      hash,
      commitEpoch,
    });
  }

  private record(batch: CommittedBatch): void {
    const previous = this.digestAt.get(batch.baseOffset) ?? EMPTY_DIGEST;
    this.indexByBase.set(batch.baseOffset, this.committed.length);
    this.committed.push(batch);
    this.endOffset = batch.lastOffset + 1;
    this.digestAt.set(this.endOffset, chainDigest(previous, batch));
  }

  private progressOf(replica: CheckedReplica): ReplicaProgress {
    let progress = this.progress.get(replica.id);
    if (progress === undefined || progress.incarnation !== replica.incarnation) {
      progress = {
        incarnation: replica.incarnation,
        highWatermark: 0,
        verifiedUpTo: 0,
        checkedLeaderEpoch: -1,
      };
      this.progress.set(replica.id, progress);
    }
    return progress;
  }

  private fail(invariant: string, detail: string): never {
    throw new InvariantViolation(`${invariant}: ${detail}`);
  }
}

function describe(baseOffset: number, lastOffset: number, epoch: number): string {
  return `[${baseOffset}..${lastOffset}]@${epoch}`;
}
