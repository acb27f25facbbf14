/**
 * One Raft voter for bench/raft.bench.ts, run by `child_process.fork` with argv
 * `CLUSTER_ID KEY=VALUE...` (read as `--set` flags over `SLUICE_*` variables). It starts a
 * controller node, says "ready" over the IPC channel and answers RaftNodeCommand. A proposal
 * counts as committed when a RaftListener on this node is handed the batch that holds it, in
 * the epoch it was proposed in, below the high watermark.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { assert } from "../src/common/index.js";
import * as adapters from "../src/adapters/index.js";
import { loadNodeConfig, startControllerNode, type ControllerNode } from "../src/main/index.js";
import type { Logger, MetricsSink } from "../src/ports/index.js";
import type { CommittedRecords, LeaderChange, RaftListener } from "../src/raft/index.js";
import type { ProposeResult, RaftDriverStatus, SnapshotRecords } from "../src/raft/index.js";

/** What to propose: `recordCountMax` records (null: no limit) within `durationMs`. */
export interface ProposePlan {
  readonly recordCountMax: number | null;
  readonly recordBytes: number;
  readonly recordsPerProposal: number;
  /** Records per second; null proposes as fast as the driver accepts them. */
  readonly recordsPerSecond: number | null;
  readonly durationMs: number;
}

/** A command from the benchmark; each is answered by one reply with its requestId. */
export type RaftNodeCommand =
  | { readonly kind: "status"; readonly requestId: number }
  | { readonly kind: "propose"; readonly requestId: number; readonly plan: ProposePlan }
  /** Commit one record as soon as this node leads an epoch above `epochAbove`. */
  | { readonly kind: "commitWhenLeader"; readonly requestId: number; readonly epochAbove: number };

/** A message to the benchmark. Times ending in `AtMs` are wall-clock milliseconds. */
export type RaftNodeReply =
  | {
      readonly kind: "ready";
      readonly requestId: 0;
      readonly timings: { readonly electionTimeoutMs: number; readonly fetchTimeoutMs: number };
    }
  | { readonly kind: "status"; readonly requestId: number; readonly status: RaftDriverStatus }
  | {
      readonly kind: "proposed";
      readonly requestId: number;
      readonly proposedRecords: number;
      readonly committedRecords: number;
      readonly refusedProposals: number;
      /** From the first proposal to the last commit. */
      readonly lastCommitAfterMs: number;
      /** Commit latency percentiles, null when nothing committed. */
      readonly latencyMs: { readonly p50: number; readonly p99: number } | null;
    }
  | {
      readonly kind: "committedAsLeader";
      readonly requestId: number;
      readonly electedAtMs: number;
      readonly committedAtMs: number;
    }
  /** Another node leads an epoch above the one asked about, so this one stops waiting. */
  | { readonly kind: "leaderElsewhere"; readonly requestId: number; readonly leaderId: number }
  | { readonly kind: "failed"; readonly requestId: number; readonly message: string };

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export function epochNowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** An accepted proposal waiting for its commit; `settle` gets the commit time, or null if lost. */
type Proposal = Extract<ProposeResult, { kind: "accepted" }> & {
  readonly settle: (committedAtMs: number | null) => void;
};

/** Watches commits and leader changes; proposals are kept in offset order. */
class CommitWatcher implements RaftListener {
  private readonly proposals: Proposal[] = [];
  private deliveredEndOffset = 0;
  private readonly leaderWaiters = new Set<(change: LeaderChange) => void>();
  /** When this node last became leader. */
  electedAtMs: number | null = null;

  constructor(private readonly nodeId: number) {}

  track(proposal: Proposal): void {
    // A commit needs a follower's Fetch, which cannot arrive before the proposer resumes.
    assert(proposal.baseOffset >= this.deliveredEndOffset, "a proposal is tracked before commit");
    const last = this.proposals[this.proposals.length - 1];
    if (last !== undefined) assert(last.lastOffset < proposal.baseOffset, "offsets increase");
    this.proposals.push(proposal);
  }

  /** Calls `onChange` at each leader change until the returned function is called. */
  onLeaderChange(onChange: (change: LeaderChange) => void): () => void {
    this.leaderWaiters.add(onChange);
    return () => this.leaderWaiters.delete(onChange);
  }

  handleCommit(batch: CommittedRecords): void {
    const nowMs = epochNowMs();
    let settled = 0;
    for (const proposal of this.proposals) {
      if (proposal.lastOffset > batch.lastOffset) break;
      // A proposal's records never span batches; other records at its offsets mean it was lost.
      const isOurs = proposal.baseOffset >= batch.baseOffset && proposal.epoch === batch.epoch;
      proposal.settle(isOurs ? nowMs : null);
      settled += 1;
    }
    this.proposals.splice(0, settled);
    this.deliveredEndOffset = batch.lastOffset + 1;
  }

  handleLoadSnapshot(snapshot: SnapshotRecords): void {
    // The benchmark never snapshots, but a snapshot would still move what was delivered.
    this.deliveredEndOffset = Math.max(this.deliveredEndOffset, snapshot.snapshotId.endOffset);
  }

  handleLeaderChange(change: LeaderChange): void {
    if (change.leaderId === this.nodeId) this.electedAtMs = epochNowMs();
    for (const waiter of [...this.leaderWaiters]) waiter(change);
  }
}

/** How long a propose command waits for its last commits once it has stopped proposing. */
const DRAIN_TIMEOUT_MS = 10_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The value at quantile `q` (0..1) of ascending `sorted`, by nearest rank. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

/** Proposes as `plan` says and reports what committed and how fast. */
async function propose(node: ControllerNode, watcher: CommitWatcher, plan: ProposePlan) {
  const records = Array.from({ length: plan.recordsPerProposal }, () =>
    new Uint8Array(plan.recordBytes).fill(0x61),
  );
  const latenciesMs: number[] = [];
  let [proposedRecords, refusedProposals, lastCommittedAtMs, pending] = [0, 0, 0, 0];
  const startedAtMs = epochNowMs();
  while (proposedRecords < (plan.recordCountMax ?? Infinity)) {
    const nowMs = epochNowMs();
    if (nowMs - startedAtMs >= plan.durationMs) break;
    // At a fixed rate each record has a scheduled time and latency counts from it, so a late
    // proposal (a stalled event loop) is charged to the system rather than hidden.
    const rate = plan.recordsPerSecond;
    const scheduledAtMs = rate === null ? nowMs : startedAtMs + (proposedRecords * 1000) / rate;
    if (scheduledAtMs > nowMs) {
      await sleep(Math.max(1, Math.floor(scheduledAtMs - nowMs)));
      continue;
    }
    const result = await node.raft.propose(records);
    if (result.kind === "accepted") {
      proposedRecords += records.length;
      pending += 1;
      const settle = (committedAtMs: number | null): void => {
        if (committedAtMs !== null) latenciesMs.push(committedAtMs - scheduledAtMs);
        lastCommittedAtMs = Math.max(lastCommittedAtMs, committedAtMs ?? 0);
        pending -= 1;
      };
      watcher.track({ ...result, settle });
    } else refusedProposals += 1;
    // A proposal that only joins the pending batch never leaves the microtask queue; sockets
    // and the flush must get their turn, and a refused proposal must wait for them.
    await (result.kind === "accepted" ? new Promise(setImmediate) : sleep(1));
  }
  // Polling costs the figures nothing: each commit time was taken when it was delivered.
  const drainDeadlineMs = epochNowMs() + DRAIN_TIMEOUT_MS;
  while (pending > 0 && epochNowMs() < drainDeadlineMs) await sleep(5);
  const sorted = latenciesMs.sort((a, b) => a - b);
  const latencyMs =
    sorted.length === 0 ? null : { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
  const committedRecords = sorted.length * records.length;
  const lastCommitAfterMs = lastCommittedAtMs - startedAtMs;
  return { proposedRecords, committedRecords, refusedProposals, lastCommitAfterMs, latencyMs };
}

/**
 * Waits until this node leads an epoch above `epochAbove`, proposes one record and answers
 * once it commits (a proposal lost to a newer election waits for the next leadership); answers
 * "leaderElsewhere" once another node leads such an epoch. The benchmark bounds the wait.
 */
function commitWhenLeader(
  node: ControllerNode,
  watcher: CommitWatcher,
  command: Extract<RaftNodeCommand, { kind: "commitWhenLeader" }>,
): Promise<RaftNodeReply> {
  const { requestId, epochAbove } = command;
  return new Promise<RaftNodeReply>((resolve) => {
    let isDone = false;
    const finish = (reply: RaftNodeReply): void => {
      if (isDone) return;
      isDone = true;
      stopWatching();
      resolve(reply);
    };
    const proposeAsLeader = (): void => {
      const electedAtMs = watcher.electedAtMs ?? epochNowMs();
      const settle = (committedAtMs: number | null): void => {
        if (committedAtMs !== null) {
          finish({ kind: "committedAsLeader", requestId, electedAtMs, committedAtMs });
        }
      };
      node.raft.propose([new Uint8Array([1])]).then(
        (result) => {
          if (result.kind === "accepted" && !isDone) watcher.track({ ...result, settle });
        },
        (error: unknown) => finish({ kind: "failed", requestId, message: String(error) }),
      );
    };
    const consider = ({ leaderId, epoch }: LeaderChange): void => {
      if (isDone || leaderId === null || epoch <= epochAbove) return;
      if (leaderId === node.nodeId) proposeAsLeader();
      else finish({ kind: "leaderElsewhere", requestId, leaderId });
    };
    const stopWatching = watcher.onLeaderChange(consider);
    consider(node.raft.status);
  });
}

/** Answers one command; a thrown error becomes a "failed" reply. */
async function answer(
  node: ControllerNode,
  watcher: CommitWatcher,
  command: RaftNodeCommand,
): Promise<RaftNodeReply> {
  const { requestId } = command;
  try {
    switch (command.kind) {
      case "status":
        return { kind: "status", requestId, status: node.raft.status };
      case "propose":
        return { kind: "proposed", requestId, ...(await propose(node, watcher, command.plan)) };
      case "commitWhenLeader":
        return await commitWhenLeader(node, watcher, command);
    }
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { kind: "failed", requestId, message };
  }
}

const ignore = (): undefined => undefined;

/** Warnings and errors go to stderr, whose end the benchmark prints when a voter fails. */
const stderrLogger: Logger = {
  debug: ignore,
  info: ignore,
  warn: (message, fields) => process.stderr.write(`warn ${message} ${JSON.stringify(fields)}\n`),
  error: (message, fields) => process.stderr.write(`error ${message} ${JSON.stringify(fields)}\n`),
  child: () => stderrLogger,
};

const discardedMetrics: MetricsSink = {
  counter: () => ({ inc: ignore }),
  gauge: () => ({ set: ignore }),
  histogram: () => ({ observe: ignore }),
};

/** Starts the node; a bad configuration or data folder throws, and the process ends with it. */
async function main(args: readonly string[]): Promise<void> {
  const send = process.send?.bind(process);
  assert(send !== undefined, "the process is started with an IPC channel");
  // Without the benchmark nobody can stop this voter; do not outlive it.
  process.on("disconnect", () => process.exit(0));
  const [clusterId, ...flags] = args;
  assert(clusterId !== undefined, "argv starts with the cluster id");
  const loaded = loadNodeConfig({ environment: process.env, flags });
  if (loaded.kind === "invalid") throw new Error(JSON.stringify(loaded.problems));
  const { config } = loaded;
  assert(config.nodeId !== undefined, "a controller has a node id");
  const watcher = new CommitWatcher(config.nodeId);
  const ports = {
    fs: new adapters.NodeFileSystem(),
    network: new adapters.NodeNetwork(),
    clock: new adapters.SystemClock(),
    timers: new adapters.NodeTimers(),
    random: new adapters.CryptoRandom(),
    logger: stderrLogger,
    metrics: discardedMetrics,
  };
  const node = await startControllerNode(ports, {
    config,
    clusterIdToFormat: clusterId,
    listeners: [watcher],
    // A voter whose metadata log failed is worthless here; the benchmark sees the exit.
    onFatalError: () => process.exit(70),
  });
  process.on("message", (command: RaftNodeCommand) => {
    // answer() turns every failure into a reply, so this chain cannot reject.
    void answer(node, watcher, command).then((reply) => send(reply));
  });
  send({ kind: "ready", requestId: 0, timings: config.quorum } satisfies RaftNodeReply);
}

// Run only when forked as a program, so the benchmark can import the types and the clock.
const entry = process.argv[1];
if (entry !== undefined && pathToFileURL(entry).href === import.meta.url) {
  await main(process.argv.slice(2));
}
