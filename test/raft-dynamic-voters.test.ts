/**
 * Dynamic voters (KIP-853) with real processes: a quorum of one controller (formatted
 * --standalone) grows to three with `sluice quorum add-controller`, each newcomer first found
 * the leader through controller.quorum.bootstrap.servers and caught up as an observer, then
 * shrinks back to one with `sluice quorum remove-controller`, and the lone voter still commits.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CryptoRandom, NodeNetwork, NodeTimers, SystemClock } from "../src/adapters/index.js";
import { withConnection } from "../src/client/index.js";
import { freePort, SLUICE } from "./clients/sluice-process.js";
import {
  describeQuorum,
  incrementalAlterConfigs,
  type DescribeQuorumResponsePartitionData,
} from "../src/protocol/index.js";

const CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
const children = new Map<number, ChildProcess>();
const folder = mkdtempSync(join(tmpdir(), "sluice-voters-"));
const clientPorts = {
  network: new NodeNetwork(),
  timers: new NodeTimers(),
  clock: new SystemClock(),
  random: new CryptoRandom(),
};

after(() => {
  for (const child of children.values()) child.kill("SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

/** Runs the sluice command line and returns its exit code and output. */
async function sluice(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SLUICE, ...args], (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The metadata partition as the controller at `port` describes it, or undefined. */
async function describe(port: number): Promise<DescribeQuorumResponsePartitionData | undefined> {
  const body = {
    topics: [{ topicName: "__cluster_metadata", partitions: [{ partitionIndex: 0 }] }],
  };
  const result = await withConnection(
    { host: "127.0.0.1", port },
    clientPorts,
    (connection) => connection.send(describeQuorum, body, { maxVersion: 2 }),
    { requestTimeoutMs: 2000 },
  );
  const partition = result.kind === "response" ? result.body.topics[0]?.partitions[0] : undefined;
  return partition?.errorCode === 0 ? partition : undefined;
}

/** Polls until `check` holds (returning its value) or the deadline passes. */
async function waitFor<T>(what: string, deadlineMs: number, check: () => Promise<T | undefined>) {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadlineMs, `${what} before the deadline`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The directory.id that `sluice format` wrote into `dir`. */
function directoryIdOf(dir: string): string {
  const text = readFileSync(join(dir, "meta.properties"), "utf8");
  const match = /^directory\.id=(.+)$/m.exec(text);
  assert.ok(match !== null, `${dir} has a directory.id`);
  return (match[1] as string).trim();
}

function voterIdsOf(partition: DescribeQuorumResponsePartitionData): number[] {
  return partition.currentVoters.map((voter) => voter.replicaId).sort((a, b) => a - b);
}

/** Writes the configuration of controller `id`, formats its dir, and starts it. */
async function setUpController(id: number, ports: ReadonlyMap<number, number>): Promise<string> {
  const config = join(folder, `controller-${id}.properties`);
  writeFileSync(
    config,
    [
      "process.roles=controller",
      `node.id=${id}`,
      `controller.quorum.bootstrap.servers=127.0.0.1:${ports.get(1)}`,
      `listeners=CONTROLLER://127.0.0.1:${ports.get(id)}`,
      "controller.listener.names=CONTROLLER",
      `log.dirs=${join(folder, `data-${id}`)}`,
      // Several nodes on one host: each needs its own HTTP port.
      "sluice.http.listener=127.0.0.1:0",
    ].join("\n"),
  );
  const quorum = id === 1 ? "--standalone" : "--no-initial-controllers";
  const formatted = await sluice([
    ...["format", "--config", config, "--cluster-id", CLUSTER_ID, quorum],
  ]);
  assert.equal(formatted.code, 0, formatted.stderr);
  const child = spawn(process.execPath, [SLUICE, "start", "--config", config], {
    stdio: ["ignore", "ignore", "ignore"],
  });
  children.set(id, child);
  return config;
}

/** Adds controller `id`, retrying while the leader says it has not caught up yet. */
async function addController(id: number, bootstrap: string, config: string, deadlineMs: number) {
  const args = ["quorum", "add-controller", "--bootstrap-controller", bootstrap];
  args.push("--config", config);
  let last = "";
  for (;;) {
    const added = await sluice(args);
    if (added.code === 0) return;
    last = added.stderr;
    assert.ok(Date.now() < deadlineMs, `controller ${id} was added before the deadline: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The leader's status of one config change committed through the lone voter. */
async function alterClusterConfig(port: number): Promise<number | undefined> {
  const body = {
    resources: [
      {
        resourceType: 4,
        resourceName: "",
        configs: [{ name: "log.retention.ms", configOperation: 0, value: "3600000" }],
      },
    ],
    validateOnly: false,
  };
  const result = await withConnection(
    { host: "127.0.0.1", port },
    clientPorts,
    (connection) => connection.send(incrementalAlterConfigs, body),
    { requestTimeoutMs: 5000 },
  );
  return result.kind === "response" ? result.body.responses[0]?.errorCode : undefined;
}

test("one controller grows to three voters and shrinks back, still committing", async () => {
  const deadlineMs = Date.now() + 90_000;
  const ports = new Map<number, number>();
  for (const id of [1, 2, 3]) ports.set(id, await freePort());
  const leaderPort = ports.get(1) as number;
  const bootstrap = `127.0.0.1:${leaderPort}`;
  const configs = new Map<number, string>();
  for (const id of [1, 2, 3]) configs.set(id, await setUpController(id, ports));
  await waitFor("controller 1 leads alone", deadlineMs, async () => {
    const partition = await describe(leaderPort);
    return partition?.leaderId === 1 ? partition : undefined;
  });
  for (const id of [2, 3]) {
    // The observer found the leader through the bootstrap server and fetches from it.
    await waitFor(`controller ${id} fetches as an observer`, deadlineMs, async () => {
      const partition = await describe(leaderPort);
      return partition?.observers.some((observer) => observer.replicaId === id) ? true : undefined;
    });
    await addController(id, bootstrap, configs.get(id) as string, deadlineMs);
  }
  const grown = await describe(leaderPort);
  assert.ok(grown !== undefined);
  assert.deepEqual(voterIdsOf(grown), [1, 2, 3]);
  assert.equal(grown.leaderId, 1);
  for (const id of [3, 2]) {
    const directoryId = directoryIdOf(join(folder, `data-${id}`));
    const removed = await sluice([
      ...["quorum", "remove-controller", "--bootstrap-controller", bootstrap],
      ...["--controller-id", String(id), "--controller-directory-id", directoryId],
    ]);
    assert.equal(removed.code, 0, removed.stderr);
  }
  const shrunk = await describe(leaderPort);
  assert.ok(shrunk !== undefined);
  assert.deepEqual(voterIdsOf(shrunk), [1]);
  // The lone voter commits by itself even with the removed controllers gone.
  for (const id of [2, 3]) {
    children.get(id)?.kill("SIGKILL");
    children.delete(id);
  }
  assert.equal(await alterClusterConfig(leaderPort), 0);
  const after = await describe(leaderPort);
  assert.ok(after !== undefined);
  assert.ok(after.highWatermark > shrunk.highWatermark, "the high watermark moved");
});
