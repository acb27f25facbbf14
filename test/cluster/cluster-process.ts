/**
 * Real `sluice` processes for the multi-node tests: a node is a data dir with a server.properties
 * written by the test, formatted with `sluice format`, started with `sluice start --config` and
 * ready once it prints its "Sluice listening on" line (a broker prints it once the controller has
 * unfenced it). Requests go out over the project's own client. Every process started here is
 * killed by `killAll`, which each test file calls in `after`.
 */
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { withConnection } from "../../src/client/index.js";
import type { ApiCodec, MessageInput } from "../../src/protocol/index.js";
import { SLUICE, clientPorts, withDeadline } from "../clients/sluice-process.js";

export { isAddressInUse } from "../clients/sluice-process.js";

const run = promisify(execFile);

/** How long a node may take to start before the test fails. */
const START_DEADLINE_MS = 60_000;

/** Where a process listens: `host:port` pairs on loopback. */
export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

/** Every child started by this module, so that `killAll` leaves none behind. */
const children = new Set<ChildProcess>();
const dataDirs = new Set<string>();

/** Runs `sluice ARGS...` to completion; resolves to its output (rejects on a non-zero exit). */
export async function sluice(args: readonly string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [SLUICE, ...args], { timeout: 60_000 });
  return stdout;
}

/** A new temporary dir, removed by `killAll`. */
export function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `sluice-${prefix}-`));
  dataDirs.add(dir);
  return dir;
}

/** One node: its dir, its config file and, while it runs, its process. */
export class ClusterNode {
  private child: ChildProcess | undefined;
  private exited: Promise<number | null> = Promise.resolve(null);
  private output = "";
  readonly configPath: string;

  constructor(
    readonly name: string,
    readonly dir: string,
  ) {
    mkdirSync(dir, { recursive: true });
    this.configPath = join(dir, "server.properties");
  }

  /** The log dir (also the metadata log dir) inside the node's dir. */
  get logDir(): string {
    return join(this.dir, "data");
  }

  /** A folder `name` inside the node's dir, for a node with several log dirs. */
  dataDir(name: string): string {
    return join(this.dir, name);
  }

  /** Everything the running (or last) process wrote, for failure messages. */
  get log(): string {
    return this.output;
  }

  /** Whether a process of this node runs now. */
  get isRunning(): boolean {
    return this.child !== undefined;
  }

  /**
   * Writes server.properties; `log.dirs` is the node's own, unless `settings` name the node's
   * dirs themselves (see `dataDir`).
   */
  writeConfig(settings: Readonly<Record<string, string>>): void {
    const lines = Object.entries({ "log.dirs": this.logDir, ...settings }).map(
      ([key, value]) => `${key}=${value}`,
    );
    writeFileSync(this.configPath, lines.join("\n") + "\n");
  }

  /** `sluice format --config ... --cluster-id ... [args]`; resolves to what it printed. */
  format(clusterId: string, args: readonly string[] = []): Promise<string> {
    return sluice(["format", "--config", this.configPath, "--cluster-id", clusterId, ...args]);
  }

  /** Starts the node and waits for its listening line; rejects with its output if it exits. */
  async start(): Promise<void> {
    assert.equal(this.child, undefined, `${this.name} is not running`);
    this.output = "";
    const args = [SLUICE, "start", "--config", this.configPath];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    children.add(child);
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    const listening = new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        this.output += chunk.toString();
        if (this.output.includes("Sluice listening on")) resolve();
      });
      child.stderr.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
      child.once("exit", (code) => {
        children.delete(child);
        if (this.child === child) this.child = undefined;
        reject(new Error(`${this.name} exited with ${code}:\n${this.output}`));
      });
    });
    await withDeadline(listening, START_DEADLINE_MS, () => `${this.name}:\n${this.output}`);
  }

  /** Resolves to the exit code once the process ends by itself; rejects after `deadlineMs`. */
  whenExited(deadlineMs: number): Promise<number | null> {
    return withDeadline(this.exited, deadlineMs, () => `${this.name} exits:\n${this.output}`);
  }

  /** Freezes the process (SIGSTOP): it holds its sockets and files but does nothing. */
  pause(): void {
    assert.ok(this.child !== undefined, `${this.name} is running`);
    this.child.kill("SIGSTOP");
  }

  /** Lets a paused process go on (SIGCONT). */
  resume(): void {
    assert.ok(this.child !== undefined, `${this.name} is running`);
    this.child.kill("SIGCONT");
  }

  /** Kills the process with `signal` (SIGKILL: a crash) and waits until it has ended. */
  async stop(signal: "SIGTERM" | "SIGKILL"): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    await endProcess(child, signal);
  }
}

async function endProcess(child: ChildProcess, signal: "SIGTERM" | "SIGKILL"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

/** Kills every process this module started and removes every temporary dir. */
export async function killAll(): Promise<void> {
  await Promise.all([...children].map((child) => endProcess(child, "SIGKILL")));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  dataDirs.clear();
}

/** Sends one request to `endpoint` and returns the response body; fails the test otherwise. */
export async function request<Request extends object, Response extends object>(
  endpoint: Endpoint,
  api: ApiCodec<Request, Response>,
  body: MessageInput<Request>,
  versions: { readonly maxVersion: number },
): Promise<Response> {
  const result = await withConnection(
    endpoint,
    clientPorts(),
    (connection) => connection.send(api, body, versions),
    { requestTimeoutMs: 10_000 },
  );
  if (result.kind !== "response") {
    throw new Error(`${endpoint.host}:${endpoint.port} did not answer: ${JSON.stringify(result)}`);
  }
  return result.body;
}

/**
 * Calls `probe` every `intervalMs` until it returns a value other than undefined, and resolves
 * to that value with the time it took; rejects after `deadlineMs`. A probe that throws (a node
 * not answering yet) counts as undefined.
 */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  options: { readonly deadlineMs: number; readonly intervalMs: number; readonly what: string },
): Promise<{ readonly value: T; readonly elapsedMs: number }> {
  const started = performance.now();
  let lastProblem = "";
  while (performance.now() - started < options.deadlineMs) {
    try {
      const value = await probe();
      if (value !== undefined) return { value, elapsedMs: performance.now() - started };
    } catch (error) {
      lastProblem = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
  throw new Error(`${options.what} did not happen in ${options.deadlineMs} ms ${lastProblem}`);
}
