/**
 * `log.dir.failure.timeout.ms` with real processes: a broker whose only log dir fails while its
 * controller is frozen (SIGSTOP) cannot tell the controller, which would go on treating its
 * replicas as healthy; once the timeout passes the broker shuts down with exit code 1 and says
 * why, as Kafka's broker does (KIP-858). The dir is failed as in log-dir-failure.test.ts: renamed
 * away with a plain file in its place, so that the next segment roll fails (ENOTDIR).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ErrorCode } from "../../src/common/index.js";
import { createTopics, produce } from "../../src/protocol/index.js";
import { freePort } from "../clients/sluice-process.js";
import { clientBatch } from "../replication/fixtures.js";
import { ClusterNode, killAll, request, sluice, temporaryDir } from "./cluster-process.js";
import { brokerSettings, startController } from "./separate-roles.js";

after(killAll);

const TOPIC = "doomed";

/** One acks=1 produce of a 1 KiB record; the partition's error code. */
async function produceOnce(port: number): Promise<number> {
  const records = clientBatch([{ timestamp: Date.now(), value: "v".repeat(1024) }]);
  const body = {
    transactionalId: null,
    acks: 1,
    timeoutMs: 5000,
    topicData: [{ name: TOPIC, partitionData: [{ index: 0, records }] }],
  };
  const answer = await request({ host: "127.0.0.1", port }, produce, body, { maxVersion: 9 });
  const errorCode = answer.responses[0]?.partitionResponses[0]?.errorCode;
  assert.ok(errorCode !== undefined);
  return errorCode;
}

const TITLE = "a broker that cannot report a failed log dir shuts down after the timeout";

test(TITLE, async () => {
  const dir = temporaryDir("log-dir-timeout");
  const clusterId = (await sluice(["random-uuid"])).trim();
  const controller = await startController(dir, clusterId);
  const broker = new ClusterNode("broker", join(dir, "broker"));
  const port = await freePort();
  const dataDir = broker.dataDir("data");
  broker.writeConfig({
    ...(await brokerSettings(controller.voters, port)),
    "node.id": "2",
    "log.dirs": dataDir,
    "metadata.log.dir": broker.dataDir("metadata"),
    "log.segment.bytes": "4096",
    "log.dir.failure.timeout.ms": "1000",
  });
  await broker.format(clusterId);
  await broker.start();
  const created = await request(
    { host: "127.0.0.1", port },
    createTopics,
    {
      topics: [
        { name: TOPIC, numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] },
      ],
      timeoutMs: 10_000,
      validateOnly: false,
    },
    { maxVersion: 7 },
  );
  assert.equal(created.topics[0]?.errorCode, ErrorCode.NONE);
  assert.equal(await produceOnce(port), ErrorCode.NONE, broker.log);

  controller.node.pause();
  renameSync(dataDir, `${dataDir}-gone`);
  writeFileSync(dataDir, "not a dir");
  let errorCode: number = ErrorCode.NONE;
  for (let attempt = 0; attempt < 200 && errorCode === ErrorCode.NONE; attempt++) {
    errorCode = await produceOnce(port);
  }
  assert.equal(errorCode, ErrorCode.KAFKA_STORAGE_ERROR, broker.log.slice(-3000));
  const code = await broker.whenExited(30_000);
  assert.equal(code, 1, broker.log.slice(-3000));
  assert.match(broker.log, /not told of failed log dirs within log\.dir\.failure\.timeout\.ms/);
  controller.node.resume();
});
