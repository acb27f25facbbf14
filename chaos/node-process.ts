/**
 * One Sluice node as a real process in its own network namespace: `sluice start --config` run
 * through `nsenter --net`, its output appended to the node's log file. Faults act on it from
 * outside: SIGKILL, SIGSTOP and SIGCONT, SIGTERM for a clean stop.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { onCleanUp, sh, waitFor } from "./system.js";

/** The `sluice` command the nodes run: bin/sluice.js of this checkout, or a planted copy's. */
let sluiceCommand = join(import.meta.dirname, "..", "..", "bin", "sluice.js");

export function sluiceScript(): string {
  return sluiceCommand;
}

/** Runs the nodes from another build (a copy with a planted bug, see planted.ts). */
export function useSluiceScript(path: string): void {
  sluiceCommand = path;
}

/** How long a node may take to print its listening line. */
const START_DEADLINE_MS = 60_000;

export class NodeProcess {
  private child: ChildProcess | undefined;
  private output = "";
  private paused = false;
  /** How the last process ended: its exit code or signal. */
  lastExit = "";
  readonly configPath: string;
  readonly logPath: string;

  constructor(
    readonly nodeId: number,
    readonly dir: string,
    readonly namespace: string,
    /** Environment added to the node's process (libfaketime for clock faults). */
    readonly env: Readonly<Record<string, string>> = {},
  ) {
    mkdirSync(dir, { recursive: true });
    this.configPath = join(dir, "server.properties");
    this.logPath = join(dir, "sluice.log");
  }

  get dataDir(): string {
    return join(this.dir, "data");
  }

  get isRunning(): boolean {
    return this.child !== undefined;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  writeConfig(settings: Readonly<Record<string, string>>): void {
    const lines = Object.entries(settings).map(([key, value]) => `${key}=${value}`);
    writeFileSync(this.configPath, lines.join("\n") + "\n");
  }

  async format(clusterId: string, args: readonly string[] = []): Promise<void> {
    await sh(process.execPath, [
      sluiceScript(),
      "format",
      "--config",
      this.configPath,
      "--cluster-id",
      clusterId,
      ...args,
    ]);
  }

  /**
   * Starts the node; with `awaitListening`, resolves once it prints its listening line (a broker
   * prints it once the controller unfenced it) and rejects if it exits first.
   */
  async start(awaitListening = true): Promise<void> {
    if (this.child !== undefined) throw new Error(`node ${this.nodeId} is already running`);
    this.output = "";
    // nsenter enters the network namespace only: `ip netns exec` would also give the node a
    // copy of the mount table, which keeps every node's data file system mounted in every other
    // node's copy (so a shut down XFS could not be mounted afresh).
    const netns = `--net=/run/netns/${this.namespace}`;
    const args = [netns, "--", process.execPath, sluiceScript(), "start"];
    const child = spawn("nsenter", [...args, "--config", this.configPath], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...this.env },
    });
    this.child = child;
    this.paused = false;
    const pid = child.pid;
    onCleanUp(
      `node ${this.nodeId} (pid ${pid})`,
      () => this.endChild(child, "SIGKILL"),
      () => void child.kill("SIGKILL"),
    );
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      this.output = (this.output + text).slice(-20_000);
      appendFileSync(this.logPath, text);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.once("exit", (code, signal) => {
      this.lastExit = signal ?? `exit ${code}`;
      appendFileSync(this.logPath, `--- process ended: ${this.lastExit}\n`);
      if (this.child === child) this.child = undefined;
    });
    if (!awaitListening) return;
    await waitFor(
      `node ${this.nodeId} listening`,
      async () => {
        if (this.output.includes("Sluice listening on")) return true;
        if (this.child !== child) throw new Error(`node ${this.nodeId} ended: ${this.tail()}`);
        return undefined;
      },
      START_DEADLINE_MS,
      50,
    );
  }

  /** The end of the node's output, for error messages. */
  tail(): string {
    return this.output.slice(-2000);
  }

  pause(): void {
    if (this.child === undefined) return;
    this.child.kill("SIGSTOP");
    this.paused = true;
  }

  resume(): void {
    if (this.child === undefined) return;
    this.child.kill("SIGCONT");
    this.paused = false;
  }

  /** Ends the node with `signal` (SIGKILL: a crash; SIGTERM: a clean stop) and waits for it. */
  async stop(signal: "SIGTERM" | "SIGKILL"): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    if (this.paused) this.resume();
    await this.endChild(child, signal);
  }

  private async endChild(child: ChildProcess, signal: "SIGTERM" | "SIGKILL"): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGCONT");
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  }
}
