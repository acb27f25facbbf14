/**
 * Operating-system processes for `sluice cluster up|down|status`: starting a Node.js program
 * detached from this process (its own process group, its output appended to a log file) so
 * that it outlives the command, telling whether a process id is running, and signalling one.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";

/** The signals the cluster commands send: an orderly stop, or an end past its deadline. */
export type StopSignal = "SIGTERM" | "SIGKILL";

export class NodeProcesses {
  /**
   * Starts `node <args>` in `cwd`, detached, with standard input closed and standard output and
   * error appended to `logPath`; resolves to its process id once it is spawned.
   */
  startDetached(options: {
    readonly args: readonly string[];
    readonly cwd: string;
    readonly logPath: string;
  }): Promise<number> {
    const log = openSync(options.logPath, "a");
    try {
      const child = spawn(process.execPath, [...options.args], {
        cwd: options.cwd,
        detached: true,
        stdio: ["ignore", log, log],
      });
      return new Promise((resolve, reject) => {
        child.once("error", reject);
        child.once("spawn", () => {
          child.off("error", reject);
          // This process may end while the child runs on.
          child.unref();
          const pid = child.pid;
          if (pid === undefined) reject(new Error("the spawned process has no pid"));
          else resolve(pid);
        });
      });
    } finally {
      // The child holds its own copy of the descriptor.
      closeSync(log);
    }
  }

  /** True while a process with this id exists (one this user may not signal counts too). */
  isRunning(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  }

  /** Sends `signal` to the process; false when there is no such process. */
  signal(pid: number, signal: StopSignal): boolean {
    try {
      process.kill(pid, signal);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
      throw error;
    }
  }
}
