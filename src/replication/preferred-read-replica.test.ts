import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, brokerId, type BrokerId, type Uuid } from "../common/index.js";
import type { BrokerRegistration } from "../metadata/index.js";
import { committedIsr } from "./isr-state.js";
import type { PartitionRole } from "./partition-role.js";
import {
  findPreferredReadReplica,
  isFetchOnlyFromLeader,
  redirectedRead,
  type ReadReplicaContext,
} from "./preferred-read-replica.js";
import { rackAwareReplicaSelector } from "./replica-selector.js";
import { emptyReplicaState, type FollowerReplicaState } from "./replica-state.js";

/** Broker `id` in `rack`, live, listening on PLAINTEXT (and on INTERNAL when asked). */
function broker(
  id: number,
  rack: string | null,
  extra: { isFenced?: boolean; listeners?: string[] } = {},
): BrokerRegistration {
  return {
    id: brokerId(id),
    epoch: 1,
    incarnationId: "00000000000000000000000000000000" as Uuid,
    listeners: (extra.listeners ?? ["PLAINTEXT"]).map((name) => ({
      name,
      host: "localhost",
      port: 9000 + id,
      securityProtocol: 0,
    })),
    supportedFeatures: [],
    rack,
    isFenced: extra.isFenced ?? false,
    isInControlledShutdown: false,
    isMigratingZkBroker: false,
    directories: [],
  };
}

const follower = (
  id: number,
  offsets: { logStartOffset?: number; logEndOffset: number; lastCaughtUpTimeMs?: number },
): FollowerReplicaState => ({
  ...emptyReplicaState(brokerId(id)),
  logStartOffset: offsets.logStartOffset ?? 0,
  logEndOffset: offsets.logEndOffset,
  lastCaughtUpTimeMs: offsets.lastCaughtUpTimeMs ?? 100,
});

/** Broker 1 leads with followers 2 and 3; the ISR is given. */
function leaderOf(followers: FollowerReplicaState[], isr: number[] = [1, 2, 3]) {
  const role: PartitionRole = {
    kind: "leader",
    leaderEpoch: 4,
    partitionEpoch: 4,
    replicas: [brokerId(1), ...followers.map((f) => f.replicaId)],
    leaderEpochStartOffset: 0,
    isrState: committedIsr(isr as BrokerId[], "recovered"),
    followers: new Map(followers.map((f) => [f.replicaId, f])),
  };
  return { brokerId: brokerId(1), role, isr: isr as BrokerId[], logEndOffset: 10 };
}

function context(
  brokers: BrokerRegistration[],
  fields: Partial<Omit<ReadReplicaContext, "broker">> = {},
): ReadReplicaContext {
  return {
    selector: rackAwareReplicaSelector,
    client: { rackId: "r2", listenerName: "PLAINTEXT" },
    replicaId: -1,
    fetchOffset: 5,
    nowMs: 1000,
    broker: (id) => brokers.find((b) => b.id === id),
    ...fields,
  };
}

const RACKS = [broker(1, "r1"), broker(2, "r2"), broker(3, "r3")];

test("a consumer in a follower's rack is sent to that follower", () => {
  const leader = leaderOf([follower(2, { logEndOffset: 10 }), follower(3, { logEndOffset: 10 })]);
  assert.equal(findPreferredReadReplica(leader, context(RACKS)), 2);
});

test("a consumer in the leader's rack, or without a rack, is not sent elsewhere", () => {
  const leader = leaderOf([follower(2, { logEndOffset: 10 }), follower(3, { logEndOffset: 10 })]);
  const inLeaderRack = { rackId: "r1", listenerName: "PLAINTEXT" };
  const noRack = { rackId: "", listenerName: "PLAINTEXT" };
  assert.equal(
    findPreferredReadReplica(leader, context(RACKS, { client: inLeaderRack })),
    undefined,
  );
  assert.equal(findPreferredReadReplica(leader, context(RACKS, { client: noRack })), undefined);
});

test("a follower outside the ISR is never preferred", () => {
  const leader = leaderOf([follower(2, { logEndOffset: 10 })], [1]);
  assert.equal(findPreferredReadReplica(leader, context(RACKS)), undefined);
});

test("a follower whose log does not hold the fetch offset is never preferred", () => {
  const behind = leaderOf([follower(2, { logEndOffset: 4 })], [1, 2]);
  assert.equal(findPreferredReadReplica(behind, context(RACKS)), undefined);
  const atEnd = leaderOf([follower(2, { logEndOffset: 5 })], [1, 2]);
  assert.equal(findPreferredReadReplica(atEnd, context(RACKS)), 2, "its log end is readable");
  const trimmed = leaderOf([follower(2, { logStartOffset: 6, logEndOffset: 10 })], [1, 2]);
  assert.equal(findPreferredReadReplica(trimmed, context(RACKS)), undefined);
  const unknown = leaderOf([emptyReplicaState(brokerId(2))], [1, 2]);
  assert.equal(findPreferredReadReplica(unknown, context(RACKS)), undefined, "not fetched yet");
});

test("a fenced follower, or one without the consumer's listener, is never preferred", () => {
  const leader = leaderOf([follower(2, { logEndOffset: 10 })], [1, 2]);
  const fenced = [broker(1, "r1"), broker(2, "r2", { isFenced: true })];
  assert.equal(findPreferredReadReplica(leader, context(fenced)), undefined);
  const internalOnly = [broker(1, "r1"), broker(2, "r2", { listeners: ["INTERNAL"] })];
  assert.equal(findPreferredReadReplica(leader, context(internalOnly)), undefined);
  assert.equal(findPreferredReadReplica(leader, context([broker(1, "r1")])), undefined);
});

test("of two followers in the consumer's rack the most caught-up one is preferred", () => {
  const racks = [broker(1, "r1"), broker(2, "r2"), broker(3, "r2")];
  const moreLog = leaderOf([follower(2, { logEndOffset: 9 }), follower(3, { logEndOffset: 10 })]);
  assert.equal(findPreferredReadReplica(moreLog, context(racks)), 3);
  const recent = leaderOf([
    follower(2, { logEndOffset: 10, lastCaughtUpTimeMs: 900 }),
    follower(3, { logEndOffset: 10, lastCaughtUpTimeMs: 100 }),
  ]);
  assert.equal(findPreferredReadReplica(recent, context(racks)), 2);
});

test("followers' own fetches and a broker that does not lead are never redirected", () => {
  const leader = leaderOf([follower(2, { logEndOffset: 10 })], [1, 2]);
  assert.equal(findPreferredReadReplica(leader, context(RACKS, { replicaId: 3 })), undefined);
  const role: PartitionRole = {
    kind: "follower",
    leaderEpoch: 4,
    partitionEpoch: 4,
    leaderId: brokerId(3),
    replicas: [brokerId(3), brokerId(1)],
  };
  const asFollower = { ...leader, role };
  assert.equal(findPreferredReadReplica(asFollower, context(RACKS)), undefined);
});

test("only followers and consumers before Fetch v11 must be served by the leader", () => {
  const client = { rackId: "", listenerName: "PLAINTEXT" };
  assert.equal(isFetchOnlyFromLeader(2, client), true);
  assert.equal(isFetchOnlyFromLeader(-1, undefined), true);
  assert.equal(isFetchOnlyFromLeader(-1, client), false);
  assert.equal(isFetchOnlyFromLeader(-2, undefined), false, "the debugging replica id");
});

test("a redirected read has no records and the leader's offsets, after the epoch check", () => {
  const partition = {
    highWatermark: 7,
    logStartOffset: 2,
    logEndOffset: 9,
    checkLeaderEpoch: (epoch: number) =>
      epoch >= 0 && epoch < 4 ? ErrorCode.FENCED_LEADER_EPOCH : ErrorCode.NONE,
  };
  assert.deepEqual(redirectedRead(partition, -1, brokerId(2)), {
    kind: "records",
    records: [],
    sizeInBytes: 0,
    highWatermark: 7,
    lastStableOffset: 7,
    logStartOffset: 2,
    logEndOffset: 9,
    divergingEpoch: undefined,
    preferredReadReplica: 2,
  });
  assert.deepEqual(redirectedRead(partition, 3, brokerId(2)), {
    kind: "error",
    errorCode: ErrorCode.FENCED_LEADER_EPOCH,
    highWatermark: 7,
    logStartOffset: 2,
  });
});
