/**
 * A log dir on a full disk: the node's only log dir lives on an 8 MiB tmpfs (the metadata log on
 * another disk), mostly taken by a filler file; producing fills the rest. The produce that meets
 * ENOSPC takes the dir offline, and it and every produce after it are answered at once with
 * KAFKA_STORAGE_ERROR or NOT_LEADER_OR_FOLLOWER, never left to time out. Once the filler is
 * deleted the probe finds room, the dir comes back online with its log, the controller elects
 * the broker again, and produce succeeds, after the records written before. Needs root (mount);
 * skipped, saying why, where mounting is not permitted.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ErrorCode } from "../../src/common/index.js";
import { withConnection } from "../../src/client/index.js";
import { createTopics, produce } from "../../src/protocol/index.js";
import { pollUntil } from "../cluster/cluster-process.js";
import { clientBatch } from "../replication/fixtures.js";
import { clientPorts, SluiceProcess } from "./sluice-process.js";

const run = promisify(execFile);
const base = mkdtempSync(join(tmpdir(), "sluice-full-disk-"));
const small = join(base, "small");
let mountProblem: string | undefined;
let node: SluiceProcess | undefined;

before(async () => {
  mkdirSync(small);
  try {
    await run("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", small]);
  } catch (error) {
    mountProblem = `mounting a tmpfs is not permitted here: ${String(error).split("\n")[0]}`;
  }
});

after(async () => {
  await node?.stop("SIGKILL");
  if (mountProblem === undefined) await run("umount", [small]);
  rmSync(base, { recursive: true, force: true });
});

const SLOW_MS = 20_000;

/** One record whose value is `valueBytes` bytes long. */
function batchOf(valueBytes: number): Uint8Array {
  return clientBatch([{ timestamp: Date.now(), value: "\u0007".repeat(valueBytes) }]);
}

/** One acks=-1 produce; the partition's error code, or a failure when no answer came. */
async function produceOnce(target: SluiceProcess, records: Uint8Array): Promise<number> {
  return (await produceOffset(target, records)).errorCode;
}

async function produceOffset(
  target: SluiceProcess,
  records: Uint8Array,
): Promise<{ readonly errorCode: number; readonly baseOffset: number }> {
  const body = {
    transactionalId: null,
    acks: -1,
    timeoutMs: 10_000,
    topicData: [{ name: "filling", partitionData: [{ index: 0, records }] }],
  };
  const result = await withConnection(
    { host: "127.0.0.1", port: target.ports.client },
    clientPorts(),
    (connection) => connection.send(produce, body, { maxVersion: 9 }),
    { requestTimeoutMs: SLOW_MS },
  );
  assert.ok(result.kind === "response", `produce answered ${JSON.stringify(result)}`);
  const answer = result.body.responses[0]?.partitionResponses[0];
  assert.ok(answer !== undefined);
  return { errorCode: answer.errorCode, baseOffset: answer.baseOffset };
}

test("a full log dir refuses produce at once, then comes back once space is freed", async (t) => {
  if (mountProblem !== undefined) return t.skip(mountProblem);
  node = await SluiceProcess.create(
    [
      `log.dirs=${join(small, "data")}`,
      `metadata.log.dir=${join(base, "metadata")}`,
      "sluice.log.dir.full.probe.interval.ms=500",
    ],
    { dataDir: base },
  );
  await node.start();
  const created = await withConnection(
    { host: "127.0.0.1", port: node.ports.client },
    clientPorts(),
    (connection) =>
      connection.send(
        createTopics,
        {
          topics: [
            {
              name: "filling",
              numPartitions: 1,
              replicationFactor: 1,
              assignments: [],
              configs: [],
            },
          ],
          timeoutMs: 10_000,
          validateOnly: false,
        },
        { maxVersion: 7 },
      ),
    { requestTimeoutMs: SLOW_MS },
  );
  assert.ok(created.kind === "response");
  assert.equal(created.body.topics[0]?.errorCode, ErrorCode.NONE);
  writeFileSync(join(small, "filler"), Buffer.alloc(6 * 1024 * 1024));
  const records = batchOf(64 * 1024);
  let firstError: number | undefined;
  let acknowledged = 0;
  for (let attempt = 0; attempt < 200 && firstError === undefined; attempt++) {
    const errorCode = await produceOnce(node, records);
    if (errorCode !== ErrorCode.NONE) firstError = errorCode;
    else acknowledged++;
  }
  assert.equal(firstError, ErrorCode.KAFKA_STORAGE_ERROR, node.log.slice(-3000));
  assert.match(node.log, /log dir failed/);
  for (let attempt = 0; attempt < 3; attempt++) {
    const errorCode = await produceOnce(node, records);
    assert.ok(
      errorCode === ErrorCode.KAFKA_STORAGE_ERROR || errorCode === ErrorCode.NOT_LEADER_OR_FOLLOWER,
      `produce while offline answered ${errorCode}`,
    );
  }
  rmSync(join(small, "filler"));
  const running = node;
  const { value: offset } = await pollUntil(
    async () => {
      const answer = await produceOffset(running, batchOf(16));
      return answer.errorCode === ErrorCode.NONE ? answer.baseOffset : undefined;
    },
    { deadlineMs: 60_000, intervalMs: 250, what: "a produce accepted after space was freed" },
  );
  assert.match(node.log, /log dir back online/);
  // Every acknowledged record is still there: the new one comes after them.
  assert.ok(offset >= acknowledged, `offset ${offset} after ${acknowledged} acknowledged`);
});
