/**
 * A Sluice node as a child process for the real-client tests: `bin/sluice.js start` with the
 * single-node roles on free loopback ports and a temporary data dir, ready once it prints its
 * "Sluice listening on" line and answers ApiVersions; stopped with SIGTERM, then SIGKILL past a
 * deadline.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { after, before } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CryptoRandom, NodeNetwork, NodeTimers, SystemClock } from "../../src/adapters/index.js";
import { withConnection } from "../../src/client/index.js";
import { apiVersions } from "../../src/protocol/index.js";

/** The command the tests start. */
export const SLUICE = join(import.meta.dirname, "..", "..", "..", "bin", "sluice.js");

/** How long a node may take to start or stop before the test fails. */
const START_DEADLINE_MS = 60_000;
const STOP_DEADLINE_MS = 30_000;

/** A port that was free a moment ago: bound to 0, read, released. */
export async function freePort(): Promise<number> {
  // The OS may hand out a port it just freed again: never give this process the same port twice,
  // so the ports of one node's listeners differ.
  for (;;) {
    const port = await anyFreePort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

const handedOut = new Set<number>();

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      assert.ok(address !== null && typeof address === "object");
      server.close(() => resolve(address.port));
    });
  });
}

/** Whether a start failed because a port picked as free was taken in the meantime. */
export function isAddressInUse(error: unknown): boolean {
  // A node names a taken port in one line ("the address is in use"); Node's own errors say
  // EADDRINUSE.
  if (!(error instanceof Error)) return false;
  return error.message.includes("EADDRINUSE") || error.message.includes("the address is in use");
}

async function threeFreePorts(): Promise<SluiceProcess["ports"]> {
  return { client: await freePort(), controller: await freePort(), http: await freePort() };
}

/** The project's client ports, on real sockets and time. */
export function clientPorts() {
  return {
    network: new NodeNetwork(),
    timers: new NodeTimers(),
    clock: new SystemClock(),
    random: new CryptoRandom(),
  };
}

/** How a node process is started, beyond its settings. */
export interface SluiceProcessOptions {
  /** A command the node runs under, e.g. `["prlimit", "--nofile=4096", "--"]`. */
  readonly launcher?: readonly string[];
  /** The data dir to use (the test owns it); a new temporary one by default. */
  readonly dataDir?: string;
  /** How long a start may take (default 60 s). */
  readonly startDeadlineMs?: number;
  /** How long a stop may take before the process is killed (default 30 s). */
  readonly stopDeadlineMs?: number;
}

/** One node process and where it listens; `start` again after `stop` reuses the data dir. */
/** The settings of a single combined node on loopback `ports`, with its data in `dataDir`. */
export function singleNodeSettings(
  ports: { readonly client: number; readonly controller: number; readonly http: number },
  dataDir: string,
): string[] {
  const { client, controller, http } = ports;
  return [
    "node.id=1",
    `listeners=PLAINTEXT://127.0.0.1:${client},CONTROLLER://127.0.0.1:${controller}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${client}`,
    `controller.quorum.voters=1@127.0.0.1:${controller}`,
    `sluice.http.listener=127.0.0.1:${http}`,
    `log.dirs=${join(dataDir, "data")}`,
  ];
}

export class SluiceProcess {
  readonly dataDir: string;
  private child: ChildProcess | undefined;
  private output = "";
  ports: { readonly client: number; readonly controller: number; readonly http: number };
  private hasStarted = false;

  private constructor(
    ports: SluiceProcess["ports"],
    readonly extraSettings: readonly string[],
    private readonly options: SluiceProcessOptions,
  ) {
    this.ports = ports;
    this.dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "sluice-client-test-"));
  }

  /** A node on three new free ports; not started. */
  static async create(
    extraSettings: readonly string[] = [],
    options: SluiceProcessOptions = {},
  ): Promise<SluiceProcess> {
    return new SluiceProcess(await threeFreePorts(), extraSettings, options);
  }

  /** `host:port` of the client listener. */
  get bootstrap(): string {
    return `127.0.0.1:${this.ports.client}`;
  }

  /** The running node's process id. */
  get pid(): number {
    const pid = this.child?.pid;
    assert.ok(pid !== undefined, "the node is running");
    return pid;
  }

  /** Everything the process wrote so far, for failure messages. */
  get log(): string {
    return this.output;
  }

  /**
   * Starts the node and waits until it serves clients. A first start whose free port was taken
   * meanwhile by another process is tried again on new ports, when nothing else names the old
   * ones (the settings given, a data dir the test made).
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.startOnce();
        this.hasStarted = true;
        return;
      } catch (error) {
        if (!this.mayMovePorts() || !isAddressInUse(error) || attempt >= 3) throw error;
        await this.stop("SIGKILL");
        rmSync(this.dataDir, { recursive: true, force: true });
        this.output = "";
        this.ports = await threeFreePorts();
      }
    }
  }

  private mayMovePorts(): boolean {
    const named = Object.values(this.ports).map(String);
    const settings = this.extraSettings.join(" ");
    const isNamed = named.some((port) => settings.includes(port));
    return !this.hasStarted && this.options.dataDir === undefined && !isNamed;
  }

  private async startOnce(): Promise<void> {
    assert.equal(this.child, undefined, "the node is not running");
    const settings = [...singleNodeSettings(this.ports, this.dataDir), ...this.extraSettings];
    const args = [SLUICE, "start", ...settings.flatMap((setting) => ["--set", setting])];
    const [command, ...launcherArgs] = [...(this.options.launcher ?? []), process.execPath];
    assert.ok(command !== undefined);
    // No --config: the single-node preset formats the data dir on first start.
    const child = spawn(command, [...launcherArgs, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    const listening = new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        this.output += chunk.toString();
        if (this.output.includes("Sluice listening on")) resolve();
      });
      child.stderr.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
      child.once("exit", (code) =>
        reject(new Error(`sluice exited with ${code}:\n${this.output}`)),
      );
    });
    const deadlineMs = this.options.startDeadlineMs ?? START_DEADLINE_MS;
    await withDeadline(listening, deadlineMs, () => `no listening line:\n${this.output}`);
    await this.expectApiVersions();
  }

  /** Stops the node with `signal` (SIGKILL: as a crash) and waits for the process to end. */
  async stop(signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<number | null> {
    const child = this.child;
    if (child === undefined) return null;
    this.child = undefined;
    if (child.exitCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    child.kill(signal);
    const deadlineMs = this.options.stopDeadlineMs ?? STOP_DEADLINE_MS;
    const timer = setTimeout(() => child.kill("SIGKILL"), deadlineMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }

  /** Stops the node if it runs and removes its data dir. */
  async destroy(): Promise<void> {
    await this.stop("SIGKILL");
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async expectApiVersions(): Promise<void> {
    const result = await withConnection(
      { host: "127.0.0.1", port: this.ports.client },
      clientPorts(),
      (connection) => connection.send(apiVersions, {}, { maxVersion: 3 }),
      { requestTimeoutMs: 5000 },
    );
    assert.equal(result.kind, "response", `ApiVersions answered:\n${this.output}`);
  }
}

/** Resolves as `promise` does, or rejects with `message()` after `deadlineMs`. */
export async function withDeadline<T>(
  promise: Promise<T>,
  deadlineMs: number,
  message: () => string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), deadlineMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One node for the tests of the calling file: started before them, destroyed after them. The
 * function returned gives the running node.
 */
export function nodeForTheseTests(extraSettings: readonly string[] = []): () => SluiceProcess {
  let node: SluiceProcess | undefined;
  before(async () => {
    node = await SluiceProcess.create(extraSettings);
    await node.start();
  });
  after(async () => {
    await node?.destroy();
  });
  return () => {
    assert.ok(node !== undefined, "the node started");
    return node;
  };
}
