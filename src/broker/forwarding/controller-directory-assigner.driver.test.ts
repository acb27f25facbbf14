import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, type Uuid } from "../../common/index.js";
import type {
  AssignReplicasToDirsRequest,
  AssignReplicasToDirsResponse,
} from "../../protocol/index.js";
import type { DirectoryAssignment } from "../../replication/index.js";
import { MemoryLogger } from "../network/test-doubles.test-support.js";
import { ManualTime } from "../purgatory/manual-time.test-support.js";
import {
  ControllerDirectoryAssigner,
  type AssignmentTransport,
} from "./controller-directory-assigner.driver.js";

const TOPIC = "a0000000000000000000000000000001" as Uuid;
const DIR_A = "b0000000000000000000000000000001" as Uuid;
const DIR_B = "b0000000000000000000000000000002" as Uuid;

function assignment(partitionIndex: number, directoryId = DIR_A): DirectoryAssignment {
  return { topicId: TOPIC, partitionIndex, directoryId };
}

/** A controller that answers each request with `errorOf` per partition, once released. */
function controller(errorOf: (request: AssignReplicasToDirsRequest) => number) {
  const requests: AssignReplicasToDirsRequest[] = [];
  const releases: (() => void)[] = [];
  const transport: AssignmentTransport = (request) => {
    requests.push(request);
    const body: AssignReplicasToDirsResponse = {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE,
      directories: request.directories.map((directory) => ({
        id: directory.id,
        topics: directory.topics.map((topic) => ({
          topicId: topic.topicId,
          partitions: topic.partitions.map(({ partitionIndex }) => ({
            partitionIndex,
            errorCode: errorOf(request),
          })),
        })),
      })),
    };
    return new Promise((resolve) => releases.push(() => resolve({ kind: "response", body })));
  };
  const releaseAll = async () => {
    for (const release of releases.splice(0)) release();
    // The answer is taken and the next request sent in a few promise steps.
    for (let step = 0; step < 10; step++) await Promise.resolve();
  };
  return { requests, transport, releaseAll };
}

function assignerOf(transport: AssignmentTransport, time: ManualTime, hosted = () => true) {
  return new ControllerDirectoryAssigner(transport, {
    brokerEpoch: () => ({ brokerId: 4, brokerEpoch: 40 }),
    timers: time,
    logger: new MemoryLogger(),
    isStillHosted: hosted,
  });
}

test("assignments queued during a request go out together in the next one", async () => {
  const time = new ManualTime();
  const peer = controller(() => ErrorCode.NONE);
  const assigner = assignerOf(peer.transport, time);
  const accepted: number[] = [];
  assigner.assign(assignment(0), () => accepted.push(0));
  assigner.assign(assignment(1), () => accepted.push(1));
  assigner.assign(assignment(2, DIR_B), () => accepted.push(2));
  assert.equal(peer.requests.length, 1, "one request in flight");
  await peer.releaseAll();
  assert.deepEqual(accepted, [0]);
  assert.equal(peer.requests.length, 2);
  assert.deepEqual(
    peer.requests[1]?.directories.map((directory) => [
      directory.id,
      directory.topics[0]?.partitions.map((p) => p.partitionIndex),
    ]),
    [
      [DIR_A, [1]],
      [DIR_B, [2]],
    ],
  );
  await peer.releaseAll();
  assert.deepEqual(accepted, [0, 1, 2]);
  assert.ok(assigner.isIdle);
});

test("a refused assignment is sent again after a backoff; a newer one replaces it", async () => {
  const time = new ManualTime();
  let refusals = 1;
  const peer = controller(() => (refusals-- > 0 ? ErrorCode.STALE_BROKER_EPOCH : ErrorCode.NONE));
  const assigner = assignerOf(peer.transport, time);
  const accepted: string[] = [];
  assigner.assign(assignment(0), () => accepted.push("first"));
  await peer.releaseAll();
  assert.equal(peer.requests.length, 1, "nothing is sent before the backoff ends");
  assigner.assign(assignment(0, DIR_B), () => accepted.push("second"));
  assert.equal(peer.requests.length, 1);
  time.advance(100);
  assert.equal(peer.requests.length, 2);
  assert.equal(peer.requests[1]?.directories[0]?.id, DIR_B);
  await peer.releaseAll();
  assert.deepEqual(accepted, ["second"]);
  assert.ok(assigner.isIdle);
});

test("an assignment of a replica the broker no longer hosts is dropped unsent", () => {
  const time = new ManualTime();
  const peer = controller(() => ErrorCode.NONE);
  const assigner = assignerOf(peer.transport, time, () => false);
  assigner.assign(assignment(0));
  assert.equal(peer.requests.length, 0);
  assert.ok(assigner.isIdle);
});
