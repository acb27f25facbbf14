import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CryptoRandom, NodeNetwork, NodeTimers, SystemClock } from "../src/adapters/index.js";
import { withConnection } from "../src/client/index.js";
import { freePort, SLUICE } from "./clients/sluice-process.js";
import { describeQuorum } from "../src/protocol/index.js";

const children = new Map<number, ChildProcess>();
const folder = mkdtempSync(join(tmpdir(), "sluice-quorum-"));

after(() => {
  for (const child of children.values()) child.kill("SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

/** The leader and epoch as the controller at `port` describes them, or undefined. */
async function describeLeader(
  port: number,
): Promise<{ leaderId: number; epoch: number } | undefined> {
  const ports = {
    network: new NodeNetwork(),
    timers: new NodeTimers(),
    clock: new SystemClock(),
    random: new CryptoRandom(),
  };
  const body = {
    topics: [{ topicName: "__cluster_metadata", partitions: [{ partitionIndex: 0 }] }],
  };
  const result = await withConnection(
    { host: "127.0.0.1", port },
    ports,
    (connection) => connection.send(describeQuorum, body, { maxVersion: 2 }),
    { requestTimeoutMs: 1000 },
  );
  const partition = result.kind === "response" ? result.body.topics[0]?.partitions[0] : undefined;
  if (partition === undefined || partition.errorCode !== 0 || partition.leaderId < 0)
    return undefined;
  return { leaderId: partition.leaderId, epoch: partition.leaderEpoch };
}

/** Polls every live controller until one describes itself as leader, or the deadline passes. */
async function waitForLeader(
  ports: ReadonlyMap<number, number>,
  isAcceptable: (leader: { leaderId: number; epoch: number }) => boolean,
  deadlineMs: number,
): Promise<{ leaderId: number; epoch: number }> {
  for (;;) {
    for (const [id, port] of ports) {
      if (!children.has(id)) continue;
      const leader = await describeLeader(port);
      if (leader !== undefined && leader.leaderId === id && isAcceptable(leader)) return leader;
    }
    assert.ok(Date.now() < deadlineMs, "a leader was elected before the deadline");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("three controller processes elect a leader and elect another after it is killed", async () => {
  const ids = [1, 2, 3];
  const ports = new Map<number, number>();
  for (const id of ids) ports.set(id, await freePort());
  const voters = ids.map((id) => `${id}@127.0.0.1:${ports.get(id)}`).join(",");
  const clusterId = "MkU3OEVBNTcwNTJENDM2Qg";
  for (const id of ids) {
    const config = join(folder, `controller-${id}.properties`);
    writeFileSync(
      config,
      [
        "process.roles=controller",
        `node.id=${id}`,
        `controller.quorum.voters=${voters}`,
        `listeners=CONTROLLER://127.0.0.1:${ports.get(id)}`,
        "controller.listener.names=CONTROLLER",
        `log.dirs=${join(folder, `data-${id}`)}`,
        // Three nodes on one host: each needs its own HTTP port.
        "sluice.http.listener=127.0.0.1:0",
      ].join("\n"),
    );
    const child = spawn(
      process.execPath,
      [SLUICE, "start", "--config", config, "--cluster-id", clusterId],
      {
        stdio: ["ignore", "ignore", "ignore"],
      },
    );
    children.set(id, child);
  }
  const first = await waitForLeader(ports, () => true, Date.now() + 30_000);
  children.get(first.leaderId)?.kill("SIGKILL");
  children.delete(first.leaderId);
  const second = await waitForLeader(
    ports,
    (leader) => leader.leaderId !== first.leaderId && leader.epoch > first.epoch,
    Date.now() + 30_000,
  );
  assert.notEqual(second.leaderId, first.leaderId);
  assert.ok(second.epoch > first.epoch);
});
