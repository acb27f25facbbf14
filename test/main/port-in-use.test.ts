/**
 * Two nodes on one host: a second node whose HTTP endpoint or Kafka listener is on a port the
 * first one holds exits with one line naming the key to change, before it formats its dirs.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, SLUICE, SluiceProcess } from "../clients/sluice-process.js";

/** How long a refused start may take before the test fails. */
const REFUSAL_DEADLINE_MS = 60_000;

let first: SluiceProcess;
let folder: string;

before(async () => {
  first = await SluiceProcess.create();
  await first.start();
  folder = mkdtempSync(join(tmpdir(), "sluice-port-in-use-"));
});

after(async () => {
  await first.destroy();
  rmSync(folder, { recursive: true, force: true });
});

/** Starts a second single node with `ports`; resolves to its exit code and standard error. */
async function startSecond(
  dataDir: string,
  ports: { readonly client: number; readonly controller: number; readonly http: number },
): Promise<{ readonly code: number | null; readonly stderr: string }> {
  const settings = [
    `listeners=PLAINTEXT://127.0.0.1:${ports.client},CONTROLLER://127.0.0.1:${ports.controller}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${ports.client}`,
    `controller.quorum.voters=1@127.0.0.1:${ports.controller}`,
    `sluice.http.listener=127.0.0.1:${ports.http}`,
    `log.dirs=${dataDir}`,
  ];
  const args = [SLUICE, "start", ...settings.flatMap((setting) => ["--set", setting])];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: REFUSAL_DEADLINE_MS }, (error, _stdout, stderr) =>
      resolve({
        code: error === null ? 0 : typeof error.code === "number" ? error.code : null,
        stderr,
      }),
    );
  });
}

test("a node on another's HTTP port exits naming sluice.http.listener, unformatted", async () => {
  const dataDir = join(folder, "http-clash");
  const outcome = await startSecond(dataDir, {
    client: await freePort(),
    controller: await freePort(),
    http: first.ports.http,
  });
  assert.equal(outcome.code, 1, outcome.stderr);
  assert.deepEqual(outcome.stderr.trimEnd().split("\n"), [
    `sluice: cannot listen on 127.0.0.1:${first.ports.http} for HTTP: the address is in use ` +
      "(by another node or process); set sluice.http.listener to another address",
  ]);
  assert.equal(existsSync(dataDir), false, "nothing was written in the data dir");
});

test("a second node on the first's client port exits naming listeners, unformatted", async () => {
  const dataDir = join(folder, "client-clash");
  const outcome = await startSecond(dataDir, {
    client: first.ports.client,
    controller: await freePort(),
    http: await freePort(),
  });
  assert.equal(outcome.code, 1, outcome.stderr);
  assert.deepEqual(outcome.stderr.trimEnd().split("\n"), [
    `sluice: cannot listen on 127.0.0.1:${first.ports.client} for listener PLAINTEXT: the ` +
      "address is in use (by another node or process); set listeners to another address",
  ]);
  assert.equal(existsSync(dataDir), false, "nothing was written in the data dir");
});
