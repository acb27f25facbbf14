/**
 * Operating-system processes for `sluice cluster up|down|status`: starting a Node.js program
 * detached from this process (its own process group, its output appended to a log file) so
 * that it outlives the command, telling whether a process id is running, and signalling one.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";

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

  /**
   * True while a process with this id exists (one this user may not signal counts too) and,
   * where the system shows its command line (/proc on Linux), that names `argument`, so that
   * an id the system gave to another program since is not taken for the node.
   */
  isRunning(pid: number, argument: string): boolean {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
    }
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      // No /proc (macOS), or the process ended meanwhile: the id is all there is to go by.
      return true;
    }
    // An exiting process, or one not yet reaped, shows an empty command line: it still runs.
    return commandLine === "" || commandLine.split("\0").includes(argument);
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
