/**
 * Running system commands for the harness (ip, iptables, mount, kill), and the undo list: every
 * namespace, mount, process and folder the harness makes registers how to remove it, and
 * `cleanUp` runs the list backwards, on success, on error and on SIGINT or SIGTERM alike.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Runs `command args...`; resolves to its standard output, rejects with its standard error. */
export async function sh(command: string, args: readonly string[], timeoutMs = 30_000) {
  try {
    const { stdout } = await execFileAsync(command, [...args], {
      timeout: timeoutMs,
      maxBuffer: 256 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failed = error as { stderr?: string; message?: string };
    const detail = (failed.stderr ?? "").trim() || failed.message || String(error);
    throw new Error(`${command} ${args.join(" ")}: ${detail}`);
  }
}

/** Like `sh`, but resolves to whether the command succeeded. */
export async function succeeds(command: string, args: readonly string[]): Promise<boolean> {
  try {
    await sh(command, args, 15_000);
    return true;
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value (not undefined) or `deadlineMs` passes. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  deadlineMs: number,
  intervalMs = 200,
): Promise<T> {
  const until = performance.now() + deadlineMs;
  let problem = "";
  while (performance.now() < until) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    await sleep(intervalMs);
  }
  throw new Error(`${what} did not happen within ${deadlineMs} ms ${problem}`.trim());
}

type Undo = {
  readonly what: string;
  readonly run: () => Promise<void>;
  /** The same at once, synchronously, for when the run is past its time bound. */
  readonly now: (() => void) | undefined;
};

const undoList: Undo[] = [];

/** Registers how to remove something just made; `cleanUp` runs the newest first. */
export function onCleanUp(what: string, run: () => Promise<void>, now?: () => void): void {
  undoList.push({ what, run, now });
}

/** Runs `command args...` synchronously, ignoring failure (for `cleanUpNow`). */
export function shNow(command: string, args: readonly string[]): void {
  try {
    execFileSync(command, [...args], { stdio: "ignore", timeout: 10_000 });
  } catch {
    // Removing what is already gone fails; that is fine here.
  }
}

/** Removes everything registered at once, without waiting for anything asynchronous. */
export function cleanUpNow(): void {
  while (undoList.length > 0) {
    const step = undoList.pop();
    try {
      step?.now?.();
    } catch (error) {
      process.stderr.write(`chaos: removing ${step?.what} failed: ${String(error)}\n`);
    }
  }
}

/** Removes everything registered, newest first; a step that fails is reported and skipped. */
export async function cleanUp(): Promise<void> {
  while (undoList.length > 0) {
    const step = undoList.pop();
    if (step === undefined) break;
    try {
      await withTimeout(step.run(), 30_000, step.what);
    } catch (error) {
      process.stderr.write(`chaos: cleaning up ${step.what} failed: ${String(error)}\n`);
    }
  }
}

/** `promise`, or a rejection naming `what` once `ms` have passed. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** On SIGINT or SIGTERM: clean up, then exit 130. */
export function cleanUpOnSignals(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      process.stderr.write(`chaos: ${signal}, removing what the run made\n`);
      cleanUpNow();
      process.exit(130);
    });
  }
}
