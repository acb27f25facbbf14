/**
 * A classic consumer group whose coordinator moves: on three combined nodes as real processes,
 * two members form a Stable group through JoinGroup and SyncGroup (sent on the wire by the
 * project's client); the node leading the group's `__consumer_offsets` partition is killed with
 * -9, the partition's new leader loads the group's GroupMetadata record, and both members go on
 * heartbeating at the new coordinator in the same generation, the follower getting its
 * assignment back from SyncGroup, without a rebalance.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { describeGroups, heartbeat, joinGroup, syncGroup } from "../../src/protocol/index.js";
import { killAll, pollUntil, request } from "./cluster-process.js";
import { coordinatorOf, type Member } from "./three-nodes.js";
import { COORDINATOR_RETRIABLE, startGroupCluster } from "./group-cluster.js";

after(killAll);

const TOPIC = "orders";
const GROUP = "moving-classic-readers";

/** The running node that coordinates the group now (not `avoiding`). */
async function coordinator(members: readonly Member[], avoiding?: number): Promise<Member> {
  const asked = avoiding === undefined ? {} : { avoiding };
  const nodeId = await coordinatorOf(members, { key: GROUP, keyType: 0, ...asked });
  const found = members.find((member) => member.nodeId === nodeId);
  assert.ok(found !== undefined && found.node.isRunning, `node ${nodeId} runs`);
  return found;
}

/** Sends `send` to the group's coordinator, asked again while the coordinator moves. */
async function atCoordinator<Answer extends { errorCode: number }>(
  members: readonly Member[],
  send: (coordinator: Member) => Promise<Answer>,
  what: string,
  avoiding?: number,
): Promise<Answer> {
  const { value } = await pollUntil(
    async () => {
      const answer = await send(await coordinator(members, avoiding));
      return COORDINATOR_RETRIABLE.has(answer.errorCode) ? undefined : answer;
    },
    { deadlineMs: 90_000, intervalMs: 200, what },
  );
  return value;
}

function join(member: Member, memberId: string) {
  const metadata = new Uint8Array([0, 0, 0, 0, 0, 1, 0, 6, ...Buffer.from(TOPIC), 0, 0, 0, 0]);
  return request(
    member.client,
    joinGroup,
    {
      groupId: GROUP,
      sessionTimeoutMs: 30_000,
      rebalanceTimeoutMs: 30_000,
      memberId,
      protocolType: "consumer",
      protocols: [{ name: "range", metadata }],
    },
    { maxVersion: 3 },
  );
}

function sync(
  member: Member,
  sent: { readonly memberId: string; readonly generationId: number },
  assignments: { memberId: string; assignment: Uint8Array }[] = [],
) {
  const body = { groupId: GROUP, ...sent, assignments };
  return request(member.client, syncGroup, body, { maxVersion: 3 });
}

function beat(member: Member, sent: { readonly memberId: string; readonly generationId: number }) {
  return request(member.client, heartbeat, { groupId: GROUP, ...sent }, { maxVersion: 3 });
}

test(
  "a classic group keeps its generation, members and assignments when its coordinator dies",
  { timeout: 300_000 },
  async () => {
    const settings = { "group.initial.rebalance.delay.ms": "0" };
    const at = { topic: TOPIC, groupId: GROUP };
    const members = await startGroupCluster("classic-group-move", at, settings);

    // A joins alone (generation 1) and syncs; B's join rebalances, and A rejoins.
    // The first join is asked again until the coordinator has loaded its partition.
    const { value: started } = await pollUntil(
      async () => {
        const at = await coordinator(members);
        const answer = await join(at, "");
        return COORDINATOR_RETRIABLE.has(answer.errorCode)
          ? undefined
          : { home: at, joinedA: answer };
      },
      { deadlineMs: 90_000, intervalMs: 200, what: "the first member's join" },
    );
    const { home, joinedA } = started;
    assert.equal(joinedA.errorCode, ErrorCode.NONE);
    const a = joinedA.memberId;
    const alone = await sync(home, { memberId: a, generationId: joinedA.generationId }, []);
    assert.equal(alone.errorCode, ErrorCode.NONE);
    const [joinedB, rejoinedA] = await Promise.all([join(home, ""), join(home, a)]);
    assert.equal(joinedB.errorCode, ErrorCode.NONE);
    const b = joinedB.memberId;
    const generationId = rejoinedA.generationId;
    assert.equal(joinedB.generationId, generationId);
    assert.equal(rejoinedA.leader, a);
    const assignments = [
      { memberId: a, assignment: Uint8Array.of(1) },
      { memberId: b, assignment: Uint8Array.of(2) },
    ];
    const [syncedB, syncedA] = await Promise.all([
      sync(home, { memberId: b, generationId }),
      sync(home, { memberId: a, generationId }, assignments),
    ]);
    assert.deepEqual([...syncedA.assignment], [1]);
    assert.deepEqual([...syncedB.assignment], [2]);

    await home.node.stop("SIGKILL");

    for (const memberId of [a, b]) {
      const answer = await atCoordinator(
        members,
        (at) => beat(at, { memberId, generationId }),
        `a heartbeat of ${memberId}`,
        home.nodeId,
      );
      assert.equal(answer.errorCode, ErrorCode.NONE, "the member is known in its generation");
    }
    const resynced = await atCoordinator(
      members,
      (at) => sync(at, { memberId: b, generationId }),
      "a SyncGroup of the follower",
      home.nodeId,
    );
    assert.equal(resynced.errorCode, ErrorCode.NONE);
    assert.deepEqual([...resynced.assignment], [2], "its assignment, without a rebalance");
    const newHome = await coordinator(members, home.nodeId);
    const described = await request(
      newHome.client,
      describeGroups,
      { groups: [GROUP], includeAuthorizedOperations: false },
      { maxVersion: 5 },
    );
    const group = described.groups[0];
    assert.equal(group?.groupState, "Stable");
    assert.equal(group?.protocolType, "consumer");
    assert.deepEqual(group?.members.map((member) => member.memberId).sort(), [a, b].sort());
  },
);
