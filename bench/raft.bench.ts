/**
 * The Raft quorum on real sockets: three controller voters, each its own process
 * (bench/raft-node-process.ts) on loopback, metadata logs on the real disk. `raft/commit`: commit
 * throughput of 100-byte records proposed as fast as the leader accepts them, and commit latency
 * (p50, p99) at a fixed rate. `raft/failover`: SIGKILL the leader's process, time until a new
 * leader is elected and until it commits, restart the killed voter, wait until it caught up.
 * Environment: BENCH_RAFT_TRIALS (failovers, 20), BENCH_RAFT_SECONDS (each commit run, 5),
 * BENCH_RAFT_RATE (records/s of the latency run, 1000), BENCH_DIR (the temporary data folder).
 */
import { fork, type ChildProcess, type ForkOptions } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RaftDriverStatus } from "../src/raft/index.js";
import { epochNowMs, type ProposePlan } from "./raft-node-process.js";
import type { RaftNodeCommand, RaftNodeReply } from "./raft-node-process.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const NODE_IDS = [1, 2, 3] as const;
const CLUSTER_ID = "UmFmdEJlbmNoQ2x1c3Rlcg";
const RECORDS_PER_PROPOSAL = 1000;
const START_TIMEOUT_MS = 30_000;
const FAILOVER_TIMEOUT_MS = 20_000;
const STATUS = { kind: "status" } as const;
const CHILD_ENTRY = join(dirname(fileURLToPath(import.meta.url)), "raft-node-process.js");

function positiveFromEnvironment(name: string, fallback: number): number {
  const value = Number(process.env[name] || fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A port that was free a moment ago: bound to 0, read, released. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

/** A command as the caller writes it; VoterProcess adds the request id. */
type CommandBody<C = RaftNodeCommand> = C extends unknown ? Omit<C, "requestId"> : never;

/** The reply of the given kind. */
type Reply<K extends RaftNodeReply["kind"]> = Extract<RaftNodeReply, { kind: K }>;

/** One voter's child process and the IPC requests waiting for its replies. */
class VoterProcess {
  private readonly waiting = new Map<number, (reply: RaftNodeReply | Error) => void>();
  private nextRequestId = 1;
  private stderrTail = "";
  timings: Reply<"ready">["timings"] | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    readonly nodeId: number,
    private readonly child: ChildProcess,
  ) {
    child.stderr?.on("data", (chunk: Buffer) => {
      // Only the end matters: it says why a voter failed.
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-4000);
    });
    child.on("message", (reply: RaftNodeReply) => this.waiting.get(reply.requestId)?.(reply));
    // A command sent to a voter that just died fails here; its request then times out.
    child.on("error", (error) => (this.stderrTail += `\n${String(error)}`));
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    void this.exited.then(() => {
      for (const settle of this.waiting.values()) settle(this.failure("exited"));
    });
  }

  /** Forks the voter and waits until its node has started (its "ready", request id 0). */
  static async start(nodeId: number, args: readonly string[]): Promise<VoterProcess> {
    const options = { stdio: ["ignore", "ignore", "pipe", "ipc"], execArgv: [] } as ForkOptions;
    const voter = new VoterProcess(nodeId, fork(CHILD_ENTRY, args, options));
    try {
      const ready = await voter.reply(0, START_TIMEOUT_MS);
      if (ready.kind !== "ready") throw voter.failure(`said ${ready.kind} before ready`);
      voter.timings = ready.timings;
      return voter;
    } catch (error) {
      await voter.kill();
      throw error;
    }
  }

  /** Sends a command and waits up to `timeoutMs` for its reply; a "failed" reply throws. */
  request(command: CommandBody, timeoutMs: number): Promise<RaftNodeReply> {
    const requestId = this.nextRequestId++;
    const reply = this.reply(requestId, timeoutMs);
    this.child.send({ ...command, requestId });
    return reply;
  }

  /** Kills the process with SIGKILL and waits until it is gone. */
  async kill(): Promise<void> {
    this.child.kill("SIGKILL");
    await this.exited;
  }

  private async reply(requestId: number, timeoutMs: number): Promise<RaftNodeReply> {
    const answer = await new Promise<RaftNodeReply | Error>((resolve) => {
      const timer = setTimeout(() => resolve(this.failure("did not answer in time")), timeoutMs);
      this.waiting.set(requestId, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
    this.waiting.delete(requestId);
    if (answer instanceof Error) throw answer;
    if (answer.kind === "failed") throw this.failure(answer.message);
    return answer;
  }

  private failure(what: string): Error {
    return new Error(`voter ${this.nodeId} ${what}; its stderr ends with:\n${this.stderrTail}`);
  }
}

/** Three voters on loopback, with their data in one temporary folder. */
class Cluster {
  readonly voters = new Map<number, VoterProcess>();
  private readonly argsOf: (nodeId: number) => string[];

  constructor(
    private readonly folder: string,
    ports: ReadonlyMap<number, number>,
  ) {
    const voters = NODE_IDS.map((id) => `${id}@127.0.0.1:${ports.get(id)}`).join(",");
    this.argsOf = (id) => [
      CLUSTER_ID,
      "process.roles=controller",
      `node.id=${id}`,
      `controller.quorum.voters=${voters}`,
      `listeners=CONTROLLER://127.0.0.1:${ports.get(id)}`,
      "controller.listener.names=CONTROLLER",
      `log.dirs=${join(folder, `data-${id}`)}`,
    ];
  }

  async startVoter(nodeId: number): Promise<void> {
    this.voters.set(nodeId, await VoterProcess.start(nodeId, this.argsOf(nodeId)));
  }

  /** Waits until every running voter follows one leader and has its high watermark. */
  async waitForSteadyQuorum(): Promise<{ leader: VoterProcess; epoch: number }> {
    const deadlineMs = epochNowMs() + START_TIMEOUT_MS;
    let last: RaftDriverStatus[] = [];
    while (epochNowMs() < deadlineMs) {
      const voters = [...this.voters.values()];
      const replies = await Promise.all(voters.map((voter) => voter.request(STATUS, 5_000)));
      last = replies.map((reply) => (reply as Reply<"status">).status);
      const leaderAt = last.findIndex((status) => status.role === "leader");
      const { epoch, leaderId, highWatermark } = last[leaderAt] ?? {};
      const follows = (status: RaftDriverStatus): boolean =>
        status.epoch === epoch && status.leaderId === leaderId && status.highWatermark !== null;
      const isSteady =
        last.every(follows) && last.every((status) => status.highWatermark === highWatermark);
      if (isSteady && epoch !== undefined)
        return { leader: voters[leaderAt] as VoterProcess, epoch };
      await sleep(20);
    }
    throw new Error(`the quorum did not settle: ${JSON.stringify(last)}`);
  }

  /** Kills every voter and removes the data. */
  async close(): Promise<void> {
    await Promise.all([...this.voters.values()].map((voter) => voter.kill()));
    this.voters.clear();
    await rm(this.folder, { recursive: true, force: true });
  }
}

/** Starts three voters, runs `body` against them and always kills them afterwards. */
async function withCluster<T>(body: (cluster: Cluster) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), "sluice-raft-bench-"));
  const ports = new Map<number, number>();
  for (const id of NODE_IDS) ports.set(id, await freePort());
  const cluster = new Cluster(folder, ports);
  try {
    for (const id of NODE_IDS) await cluster.startVoter(id);
    return await body(cluster);
  } finally {
    await cluster.close();
  }
}

/** A figure in milliseconds unless said otherwise. */
function figure(label: string, value: number | undefined, unit = "ms"): BenchmarkResult {
  return { label, value: value ?? Number.NaN, unit };
}

/** Runs `plan` at the steady leader and checks something committed. */
async function proposeAtLeader(cluster: Cluster, plan: ProposePlan): Promise<Reply<"proposed">> {
  const { leader } = await cluster.waitForSteadyQuorum();
  const reply = await leader.request({ kind: "propose", plan }, plan.durationMs + 30_000);
  if (reply.kind !== "proposed" || reply.committedRecords === 0) {
    throw new Error(`nothing committed at the leader: ${JSON.stringify(reply)}`);
  }
  return reply;
}

async function measureCommits(): Promise<BenchmarkResult[]> {
  const durationMs = positiveFromEnvironment("BENCH_RAFT_SECONDS", 5) * 1000;
  const rate = positiveFromEnvironment("BENCH_RAFT_RATE", 1000);
  const recordBytes = 100;
  return withCluster(async (cluster) => {
    const saturated = await proposeAtLeader(cluster, {
      recordCountMax: null,
      recordsPerProposal: RECORDS_PER_PROPOSAL,
      recordsPerSecond: null,
      ...{ recordBytes, durationMs },
    });
    const paced = await proposeAtLeader(cluster, {
      recordCountMax: Math.round((rate * durationMs) / 1000),
      recordsPerProposal: 1,
      recordsPerSecond: rate,
      // Twice the time, so the count and not the clock ends a run that fell behind.
      ...{ recordBytes, durationMs: durationMs * 2 },
    });
    const throughput = (saturated.committedRecords * 1000) / saturated.lastCommitAfterMs;
    const latency = `commit latency at ${rate} records/s`;
    const lost = paced.proposedRecords - paced.committedRecords;
    return [
      figure(`commit throughput, ${recordBytes}-byte records`, throughput, "records/s"),
      figure(`${latency}, p50`, paced.latencyMs?.p50),
      figure(`${latency}, p99`, paced.latencyMs?.p99),
      figure(`${latency}, not committed`, lost, "records"),
    ];
  });
}

/** The middle of `values`: the mean of the two middle ones for an even count. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (at: number): number => sorted[at] ?? Number.NaN;
  return (middle((sorted.length - 1) >> 1) + middle(sorted.length >> 1)) / 2;
}

/**
 * One trial: kills the steady leader's process, asks both survivors to commit a record as soon
 * as either leads a newer epoch, and restarts the killed voter. Times (ms) are from the kill.
 */
async function failOverOnce(cluster: Cluster, pauseMs: number) {
  const { leader, epoch } = await cluster.waitForSteadyQuorum();
  // The quorum settles right after a fetch round; pausing up to two fetch waits (2 × 500 ms)
  // kills the leader at every point of the followers' fetch timers, not only at their start.
  await sleep(pauseMs);
  const killedAtMs = epochNowMs();
  await leader.kill();
  cluster.voters.delete(leader.nodeId);
  const replies = await Promise.allSettled(
    [...cluster.voters.values()].map((voter) =>
      voter.request({ kind: "commitWhenLeader", epochAbove: epoch }, FAILOVER_TIMEOUT_MS),
    ),
  );
  await cluster.startVoter(leader.nodeId);
  for (const settled of replies) {
    if (settled.status === "fulfilled" && settled.value.kind === "committedAsLeader") {
      const { electedAtMs, committedAtMs } = settled.value;
      return { electedMs: electedAtMs - killedAtMs, committedMs: committedAtMs - killedAtMs };
    }
  }
  const reasons = replies.map((settled) => JSON.stringify(settled));
  throw new Error(`no survivor committed after leader ${leader.nodeId} was killed: ${reasons}`);
}

async function measureFailover(): Promise<BenchmarkResult[]> {
  const trials = positiveFromEnvironment("BENCH_RAFT_TRIALS", 20);
  return withCluster(async (cluster) => {
    const results = [];
    for (let trial = 0; trial < trials; trial++) {
      results.push(await failOverOnce(cluster, ((trial * 7) % trials) * (1000 / trials)));
    }
    const elected = results.map((result) => result.electedMs);
    const committed = results.map((result) => result.committedMs);
    const timings = [...cluster.voters.values()][0]?.timings;
    return [
      figure(`leader killed to new leader, median of ${trials}`, median(elected)),
      figure("leader killed to new leader, max", Math.max(...elected)),
      figure("leader killed to its first commit, median", median(committed)),
      figure("leader killed to its first commit, max", Math.max(...committed)),
      figure("controller.quorum.election.timeout.ms", timings?.electionTimeoutMs),
      figure("controller.quorum.fetch.timeout.ms", timings?.fetchTimeoutMs),
    ];
  });
}

/** The Raft benchmarks; each starts its own three voters and kills them when done. */
export const benchmarks: Benchmark[] = [
  { name: "commit", run: measureCommits },
  { name: "failover", run: measureFailover },
];
