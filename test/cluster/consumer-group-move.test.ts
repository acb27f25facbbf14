/**
 * A KIP-848 consumer group whose coordinator moves: on three combined nodes as real processes,
 * two members share a topic through ConsumerGroupHeartbeat (sent on the wire by the project's
 * client); the node leading the group's `__consumer_offsets` partition is killed with -9, the
 * partition's new leader loads the group's records, and both members go on heartbeating at the
 * new coordinator with their member ids, epochs and assignments, without a rebalance.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import {
  consumerGroupDescribe,
  consumerGroupHeartbeat,
  type ConsumerGroupHeartbeatResponse,
} from "../../src/protocol/index.js";
import { killAll, pollUntil, request } from "./cluster-process.js";
import { coordinatorOf, type Member } from "./three-nodes.js";
import { COORDINATOR_RETRIABLE, startGroupCluster } from "./group-cluster.js";

after(killAll);

const TOPIC = "orders";
const GROUP = "moving-readers";

interface Heartbeat {
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly owned: { topicId: string; partitions: number[] }[] | null;
}

/** A heartbeat at the group's coordinator, asked again while the coordinator moves. */
async function heartbeat(
  members: readonly Member[],
  sent: Heartbeat,
  avoiding?: number,
): Promise<ConsumerGroupHeartbeatResponse> {
  const { value } = await pollUntil(
    async () => {
      const asked = avoiding === undefined ? {} : { avoiding };
      const coordinatorId = await coordinatorOf(members, { key: GROUP, keyType: 0, ...asked });
      const coordinator = members.find((member) => member.nodeId === coordinatorId);
      if (coordinator === undefined || !coordinator.node.isRunning) return undefined;
      const isJoin = sent.memberEpoch === 0;
      const answer = await request(
        coordinator.client,
        consumerGroupHeartbeat,
        {
          groupId: GROUP,
          memberId: sent.memberId,
          memberEpoch: sent.memberEpoch,
          instanceId: null,
          rackId: null,
          rebalanceTimeoutMs: isJoin ? 30_000 : -1,
          subscribedTopicNames: isJoin ? [TOPIC] : null,
          subscribedTopicRegex: null,
          serverAssignor: null,
          topicPartitions: isJoin ? [] : sent.owned,
        },
        { maxVersion: 1 },
      );
      return COORDINATOR_RETRIABLE.has(answer.errorCode) ? undefined : answer;
    },
    { deadlineMs: 60_000, intervalMs: 200, what: `a heartbeat of ${sent.memberId || "a member"}` },
  );
  assert.equal(value.errorCode, ErrorCode.NONE, value.errorMessage ?? "");
  return value;
}

function owned(answer: ConsumerGroupHeartbeatResponse) {
  return (answer.assignment?.topicPartitions ?? []).map((topic) => ({
    topicId: topic.topicId,
    partitions: [...topic.partitions],
  }));
}

test(
  "a KIP-848 group keeps its members, epochs and assignments when its coordinator's node dies",
  { timeout: 300_000 },
  async () => {
    const members = await startGroupCluster("consumer-group-move", {
      topic: TOPIC,
      groupId: GROUP,
    });

    const joinedA = await heartbeat(members, { memberId: "", memberEpoch: 0, owned: null });
    const a = joinedA.memberId ?? "";
    const joinedB = await heartbeat(members, { memberId: "", memberEpoch: 0, owned: null });
    const b = joinedB.memberId ?? "";
    // A gives up one partition, then moves to the new epoch; B is given it.
    const revoking = await heartbeat(members, {
      memberId: a,
      memberEpoch: 1,
      owned: owned(joinedA),
    });
    const kept = owned(revoking);
    const movedA = await heartbeat(members, { memberId: a, memberEpoch: 1, owned: kept });
    assert.equal(movedA.memberEpoch, 2);
    const givenB = await heartbeat(members, { memberId: b, memberEpoch: 2, owned: [] });
    assert.equal(givenB.memberEpoch, 2);
    const assignmentB = owned(givenB);
    assert.equal(assignmentB.flatMap((topic) => topic.partitions).length, 1);

    const coordinatorId = await coordinatorOf(members, { key: GROUP, keyType: 0 });
    const victim = members.find((member) => member.nodeId === coordinatorId);
    assert.ok(victim !== undefined);
    await victim.node.stop("SIGKILL");

    for (const [memberId, assignment] of [
      [a, kept],
      [b, assignmentB],
    ] as const) {
      const answer = await heartbeat(
        members,
        { memberId, memberEpoch: 2, owned: assignment },
        victim.nodeId,
      );
      assert.equal(answer.memberEpoch, 2, "the member keeps its epoch at the new coordinator");
    }
    const newCoordinatorId = await coordinatorOf(members, {
      key: GROUP,
      keyType: 0,
      avoiding: victim.nodeId,
    });
    const newCoordinator = members.find((member) => member.nodeId === newCoordinatorId);
    assert.ok(newCoordinator !== undefined);
    const described = await request(
      newCoordinator.client,
      consumerGroupDescribe,
      { groupIds: [GROUP], includeAuthorizedOperations: false },
      { maxVersion: 0 },
    );
    const group = described.groups[0];
    assert.equal(group?.groupState, "Stable");
    assert.equal(group?.groupEpoch, 2);
    assert.deepEqual(group?.members.map((member) => member.memberId).sort(), [a, b].sort());
  },
);
