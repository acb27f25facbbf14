import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NodeProcesses } from "./node-processes.js";

const DEADLINE_MS = 10_000;

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("a detached process logs to its file, runs under its id and ends on SIGTERM", async () => {
  const folder = mkdtempSync(join(tmpdir(), "sluice-processes-"));
  const processes = new NodeProcesses();
  const logPath = join(folder, "child.log");
  const script = "console.log('child up'); setInterval(() => {}, 1000);";
  const pid = await processes.startDetached({ args: ["-e", script], cwd: folder, logPath });
  try {
    await until(() => existsSync(logPath) && readFileSync(logPath, "utf8") === "child up\n", "log");
    assert.equal(processes.isRunning(pid, script), true);
    // Where the command line can be read, a process that runs something else is not the one.
    if (existsSync(`/proc/${pid}/cmdline`)) {
      assert.equal(processes.isRunning(pid, "another-program.js"), false);
    }
    assert.equal(processes.signal(pid, "SIGTERM"), true);
    await until(() => !processes.isRunning(pid, script), "the process ended");
    assert.equal(processes.signal(pid, "SIGTERM"), false, "no such process any more");
  } finally {
    if (processes.isRunning(pid, script)) processes.signal(pid, "SIGKILL");
    rmSync(folder, { recursive: true, force: true });
  }
});
