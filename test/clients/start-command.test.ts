/**
 * `sluice start` refuses what it cannot run before it touches anything: an unknown key, a bad
 * value (from a flag or the environment), and, with a configuration file, unformatted storage.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort, SLUICE } from "./sluice-process.js";

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), "sluice-start-test-"));

after(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `sluice start` with `args`; resolves to its exit code and standard error. */
async function start(
  args: readonly string[],
  environment: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, [SLUICE, "start", ...args], {
      timeout: 30_000,
      env: { ...process.env, ...environment },
    });
    return { code: 0, stderr: "" };
  } catch (error) {
    const failure = error as { code: number; stderr: string };
    return { code: failure.code, stderr: failure.stderr };
  }
}

test("an unknown key and a bad value are refused, each named with its source", async () => {
  const dataDir = join(folder, "refused");
  const outcome = await start(
    ["--set", "log.segment.bytes=abc", "--set", "no.such.key=1", "--set", `log.dirs=${dataDir}`],
    { SLUICE_NUM_PARTITIONS: "-3" },
  );
  assert.equal(outcome.code, 1);
  assert.match(outcome.stderr, /log\.segment\.bytes \(from flag --set log\.segment\.bytes=abc\)/);
  assert.match(outcome.stderr, /no\.such\.key \(from flag --set no\.such\.key=1\): is not a known/);
  assert.match(
    outcome.stderr,
    /num\.partitions \(from environment variable SLUICE_NUM_PARTITIONS\)/,
  );
  assert.equal(existsSync(dataDir), false, "nothing was written");
});

test("with a configuration file, unformatted storage is refused until sluice format", async () => {
  const dataDir = join(folder, "unformatted");
  const controllerPort = await freePort();
  const clientPort = await freePort();
  const properties = join(folder, "server.properties");
  writeFileSync(
    properties,
    [
      "process.roles=broker,controller",
      "node.id=1",
      `listeners=PLAINTEXT://127.0.0.1:${clientPort},CONTROLLER://127.0.0.1:${controllerPort}`,
      "controller.listener.names=CONTROLLER",
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `log.dirs=${dataDir}`,
      `sluice.http.listener=127.0.0.1:${await freePort()}`,
      "",
    ].join("\n"),
  );
  const outcome = await start(["--config", properties]);
  assert.equal(outcome.code, 1);
  assert.match(outcome.stderr, /not formatted: run sluice format --config FILE --cluster-id ID/);
});
