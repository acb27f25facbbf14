/**
 * A client that pipelines an OffsetCommit and the OffsetFetch of the same partitions on one
 * connection, not waiting for the commit's answer, reads what it committed: a node handles a
 * connection's group coordinator requests one at a time, as Kafka handles all of a connection's
 * requests. (A consumer of @platformatic/kafka reads its committed offsets whenever its
 * assignment changes, while its last commits may still be in flight; reading older offsets, it
 * read those records again.)
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { withConnection } from "../../src/client/index.js";
import { ErrorCode } from "../../src/common/index.js";
import {
  ApiKey,
  createTopics,
  decodeResponse,
  encodeRequest,
  findCoordinator,
} from "../../src/protocol/index.js";
import { pollUntil } from "../cluster/cluster-process.js";
import { RawSocket } from "./raw-socket.js";
import { SluiceProcess, clientPorts } from "./sluice-process.js";

const TOPIC = "piped";
const GROUP = "piped-group";
const PARTITIONS = [0, 1, 2];
const ROUNDS = 30;
const DEADLINE_MS = 60_000;
let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
  const address = { host: "127.0.0.1", port: node.ports.client };
  await withConnection(address, clientPorts(), async (connection) => {
    const topics = [{ name: TOPIC, numPartitions: 3, replicationFactor: 1 }];
    const created = await connection.send(createTopics, {
      topics: topics.map((topic) => ({ ...topic, assignments: [], configs: [] })),
      timeoutMs: 30_000,
      validateOnly: false,
    });
    assert.equal(created.kind, "response");
    // The first FindCoordinator creates __consumer_offsets; its leader comes a moment later.
    await pollUntil(
      async () => {
        const found = await connection.send(findCoordinator, {
          keyType: 0,
          coordinatorKeys: [GROUP],
        });
        const isFound = found.kind === "response" && found.body.coordinators[0]?.errorCode === 0;
        return isFound ? true : undefined;
      },
      { deadlineMs: DEADLINE_MS, intervalMs: 100, what: "the group's coordinator" },
    );
  });
});

after(async () => {
  await node.destroy();
});

function commitAndFetch(round: number): Uint8Array[] {
  const commit = encodeRequest(
    { apiKey: ApiKey.OffsetCommit, apiVersion: 8, correlationId: 2 * round, clientId: "piped" },
    {
      groupId: GROUP,
      generationIdOrMemberEpoch: -1,
      memberId: "",
      groupInstanceId: null,
      topics: [
        {
          name: TOPIC,
          partitions: PARTITIONS.map((partitionIndex) => ({
            partitionIndex,
            committedOffset: offsetOf(round, partitionIndex),
            committedLeaderEpoch: -1,
            committedMetadata: null,
          })),
        },
      ],
    },
  );
  const fetch = encodeRequest(
    { apiKey: ApiKey.OffsetFetch, apiVersion: 7, correlationId: 2 * round + 1, clientId: "piped" },
    {
      groupId: GROUP,
      topics: [{ name: TOPIC, partitionIndexes: PARTITIONS }],
      requireStable: false,
    },
  );
  return [...commit, ...fetch];
}

function offsetOf(round: number, partition: number): number {
  return round * 10 + partition;
}

test("an OffsetFetch pipelined behind an OffsetCommit reads the committed offsets", async () => {
  // The commits succeed once the offsets partition has a leader.
  const socket = await RawSocket.open(node.ports.client, { isReading: true });
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      await socket.write(commitAndFetch(round));
      await socket.waitForFrames(2 * round, DEADLINE_MS);
      const committed = decodeResponse(
        socket.frames[2 * round - 2] as Uint8Array,
        ApiKey.OffsetCommit,
        8,
      );
      assert.ok(committed.kind === "response");
      const codes = (
        committed.body as { topics: { partitions: { errorCode: number }[] }[] }
      ).topics[0]?.partitions.map((partition) => partition.errorCode);
      assert.deepEqual(codes, [ErrorCode.NONE, ErrorCode.NONE, ErrorCode.NONE], `round ${round}`);
      const fetched = decodeResponse(
        socket.frames[2 * round - 1] as Uint8Array,
        ApiKey.OffsetFetch,
        7,
      );
      assert.ok(fetched.kind === "response");
      const body = fetched.body as { topics: { partitions: { committedOffset: number }[] }[] };
      const offsets = body.topics[0]?.partitions.map((p) => p.committedOffset);
      assert.deepEqual(
        offsets,
        PARTITIONS.map((partition) => offsetOf(round, partition)),
        `round ${round}`,
      );
    }
  } finally {
    socket.destroy();
  }
});
