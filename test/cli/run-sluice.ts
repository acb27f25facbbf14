/** Runs the `sluice` command as a child process, for the command line tests. */
import { execFile } from "node:child_process";
import { SLUICE } from "../clients/sluice-process.js";

/** What one run of the command did. */
export interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** How long one command may run before the test kills it and fails. */
export const COMMAND_DEADLINE_MS = 60_000;

/** Runs `sluice ARGS`, `input` on standard input; resolves once it exited. */
export async function runSluice(args: readonly string[], input = ""): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [SLUICE, ...args],
      { timeout: COMMAND_DEADLINE_MS, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number") {
          reject(new Error(`sluice ${args.join(" ")}: ${String(error)}\n${stderr}`));
          return;
        }
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

/** The non-empty lines of `text`. */
export function lines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

/** The JSON that `--json` printed. */
export function json<T>(outcome: Outcome): T {
  return JSON.parse(outcome.stdout) as T;
}
