import { test } from "node:test";
import assert from "node:assert/strict";
import { CryptoRandom, NodeNetwork, NodeTimers, SystemClock } from "../../src/adapters/index.js";
import { quorumDescribe } from "../../src/cli/quorum-describe.js";
import { TestBroker } from "../client/test-broker.js";

const voterDirectory = "0123456789abcdef0123456789abcdef";

/** A fake controller on loopback answering DescribeQuorum and DescribeCluster with fixed data. */
async function fakeController(): Promise<{ address: string; broker: TestBroker }> {
  const broker = new TestBroker([
    { apiKey: 18, minVersion: 0, maxVersion: 4 },
    { apiKey: 55, minVersion: 0, maxVersion: 2 },
    { apiKey: 60, minVersion: 0, maxVersion: 1 },
  ]);
  const replica = (replicaId: number, logEndOffset: number, caughtUp: number) => ({
    replicaId,
    replicaDirectoryId: voterDirectory,
    logEndOffset,
    lastFetchTimestamp: 1_700_000_000_000,
    lastCaughtUpTimestamp: caughtUp,
  });
  broker.onRequest = (request) => {
    if (request.header.apiKey === 60) {
      request.reply({ errorCode: 0, clusterId: "MkU3OEVBNTcwNTJENDM2Qg", brokers: [] });
      return;
    }
    request.reply({
      errorCode: 0,
      topics: [
        {
          topicName: "__cluster_metadata",
          partitions: [
            {
              partitionIndex: 0,
              errorCode: 0,
              leaderId: 1,
              leaderEpoch: 7,
              highWatermark: 120,
              currentVoters: [
                replica(1, 125, 1_700_000_000_500),
                replica(2, 100, 1_700_000_000_000),
              ],
              observers: [replica(4, 90, -1)],
            },
          ],
        },
      ],
      nodes: [{ nodeId: 1, listeners: [{ name: "CONTROLLER", host: "localhost", port: 9093 }] }],
    });
  };
  const network = new NodeNetwork();
  const address = await broker.listen(network, { host: "127.0.0.1", port: 0 });
  return { address: `127.0.0.1:${address.port}`, broker };
}

async function run(args: string[]): Promise<{ code: number; lines: string[]; errors: string[] }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await quorumDescribe(args, {
    write: (line) => lines.push(line),
    error: (line) => errors.push(line),
    network: new NodeNetwork(),
    timers: new NodeTimers(),
    clock: new SystemClock(),
    random: new CryptoRandom(),
  });
  return { code, lines, errors };
}

test("quorum describe prints the status as kafka-metadata-quorum does", async () => {
  const { address, broker } = await fakeController();
  const { code, lines, errors } = await run(["--bootstrap-controller", address]);
  await broker.close();
  assert.deepEqual(errors, []);
  assert.equal(code, 0);
  assert.deepEqual(lines, [
    "ClusterId:            MkU3OEVBNTcwNTJENDM2Qg",
    "LeaderId:             1",
    "LeaderEpoch:          7",
    "HighWatermark:        120",
    "MaxFollowerLag:       25",
    "MaxFollowerLagTimeMs: 500",
    "CurrentVoters:        " +
      '[{"id":1,"directoryId":"ASNFZ4mrze8BI0VniavN7w",' +
      '"endpoints":["CONTROLLER://localhost:9093"]},' +
      '{"id":2,"directoryId":"ASNFZ4mrze8BI0VniavN7w","endpoints":[]}]',
    'CurrentObservers:     [{"id":4,"directoryId":"ASNFZ4mrze8BI0VniavN7w"}]',
  ]);
});

test("quorum describe --replication prints one row per replica, leader first", async () => {
  const { address, broker } = await fakeController();
  const { code, lines } = await run(["--bootstrap-controller", address, "--replication"]);
  assert.equal(code, 0);
  assert.deepEqual(lines, [
    "NodeId  DirectoryId             LogEndOffset  Lag  LastFetchTimestamp " +
      " LastCaughtUpTimestamp  Status",
    "1       ASNFZ4mrze8BI0VniavN7w  125           0    1700000000000      " +
      " 1700000000500          Leader",
    "2       ASNFZ4mrze8BI0VniavN7w  100           25   1700000000000      " +
      " 1700000000000          Follower",
    "4       ASNFZ4mrze8BI0VniavN7w  90            35   1700000000000      " +
      " -1                     Observer",
  ]);
  const json = await run(["--bootstrap-controller", address, "--replication", "--json"]);
  await broker.close();
  const rows = JSON.parse(json.lines.join("\n")) as { NodeId: number; Status: string }[];
  assert.deepEqual(
    rows.map((row) => [row.NodeId, row.Status]),
    [
      [1, "Leader"],
      [2, "Follower"],
      [4, "Observer"],
    ],
  );
});

test("quorum describe refuses a bad address and reports an unreachable controller", async () => {
  assert.equal((await run(["--bootstrap-controller", "nowhere"])).code, 2);
  const unreachable = await run(["--bootstrap-controller", "127.0.0.1:1"]);
  assert.equal(unreachable.code, 1);
  assert.match(unreachable.errors[0] ?? "", /DescribeQuorum failed: .*connect failed/);
});

/** A fake voter that is not the leader: it names `leaderId` at `leaderPort`, as Raft answers. */
async function fakeFollower(
  leaderId: number,
  leaderPort: number,
): Promise<{ address: string; broker: TestBroker }> {
  const broker = new TestBroker([
    { apiKey: 18, minVersion: 0, maxVersion: 4 },
    { apiKey: 55, minVersion: 0, maxVersion: 2 },
    { apiKey: 60, minVersion: 0, maxVersion: 1 },
  ]);
  broker.onRequest = (request) => {
    const partition = {
      partitionIndex: 0,
      errorCode: 6,
      errorMessage: "only the leader describes the quorum",
      leaderId,
      leaderEpoch: 7,
      highWatermark: -1,
      currentVoters: [],
      observers: [],
    };
    const listeners = [{ name: "CONTROLLER", host: "127.0.0.1", port: leaderPort }];
    request.reply({
      errorCode: 0,
      topics: [{ topicName: "__cluster_metadata", partitions: [partition] }],
      nodes: leaderId < 0 ? [] : [{ nodeId: leaderId, listeners }],
    });
  };
  const address = await broker.listen(new NodeNetwork(), { host: "127.0.0.1", port: 0 });
  return { address: `127.0.0.1:${address.port}`, broker };
}

test("quorum describe asked of a follower asks the leader it names and says so", async () => {
  const leader = await fakeController();
  const leaderPort = Number(leader.address.split(":")[1]);
  const follower = await fakeFollower(1, leaderPort);
  const { code, lines, errors } = await run(["--bootstrap-controller", follower.address]);
  await leader.broker.close();
  await follower.broker.close();
  assert.equal(code, 0, errors.join("\n"));
  assert.equal(lines[1], "LeaderId:             1");
  assert.deepEqual(errors, [
    `${follower.address} is not the leader; controller 1 is`,
    `Answered by the leader at ${leader.address}.`,
  ]);
});

test("quorum describe says when no controller leads, or the leader does not answer", async () => {
  const leaderless = await fakeFollower(-1, 0);
  const none = await run(["--bootstrap-controller", leaderless.address]);
  await leaderless.broker.close();
  assert.equal(none.code, 1);
  assert.match(none.errors[0] ?? "", /NOT_LEADER_OR_FOLLOWER: no controller leads the quorum now/);
  const orphan = await fakeFollower(3, 1);
  const gone = await run(["--bootstrap-controller", orphan.address]);
  await orphan.broker.close();
  assert.equal(gone.code, 1);
  assert.match(
    gone.errors[0] ?? "",
    /controller 3 leads the quorum but did not answer \(127\.0\.0\.1:1: /,
  );
});
