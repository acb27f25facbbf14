/**
 * The steps of the group API version sweep: one group's life at one round of versions (each API
 * at the round's number, held within its range), the request of any API at any version, and a
 * router whose group handlers fail, to reach their error responses.
 */
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import {
  DELETE_GROUPS_VERSIONS,
  DESCRIBE_GROUPS_VERSIONS,
  FIND_COORDINATOR_VERSIONS,
  HEARTBEAT_VERSIONS,
  JOIN_GROUP_VERSIONS,
  LEAVE_GROUP_VERSIONS,
  LIST_GROUPS_VERSIONS,
  OFFSET_COMMIT_VERSIONS,
  OFFSET_DELETE_VERSIONS,
  OFFSET_FETCH_VERSIONS,
  SYNC_GROUP_VERSIONS,
} from "../../src/broker/apis/groups/index.js";
import { RequestRouter, registerGroupApis, type ApiHandler } from "../../src/broker/index.js";
import type { ApiKey } from "../../src/protocol/index.js";
import { at } from "../broker/apis/harness.js";
import type { GroupBroker } from "./group-broker.js";
import {
  API,
  ASSIGNMENT,
  PROTOCOL_METADATA,
  findCoordinatorBody,
  heartbeatBody,
  joinGroupBody,
  leaveGroupBody,
  offsetCommitBody,
  offsetFetchBody,
  syncGroupBody,
  versionFor,
} from "./group-bodies.js";
import { requestPath } from "./group-requests.js";

/** The versions each group API advertises, by the names of `API`. */
export const ADVERTISED = {
  offsetCommit: OFFSET_COMMIT_VERSIONS,
  offsetFetch: OFFSET_FETCH_VERSIONS,
  findCoordinator: FIND_COORDINATOR_VERSIONS,
  joinGroup: JOIN_GROUP_VERSIONS,
  heartbeat: HEARTBEAT_VERSIONS,
  leaveGroup: LEAVE_GROUP_VERSIONS,
  syncGroup: SYNC_GROUP_VERSIONS,
  describeGroups: DESCRIBE_GROUPS_VERSIONS,
  listGroups: LIST_GROUPS_VERSIONS,
  deleteGroups: DELETE_GROUPS_VERSIONS,
  offsetDelete: OFFSET_DELETE_VERSIONS,
} as const;

/** A plain request of any group API for `groupId`, by a member "m" of generation 1. */
export function bodyOf(apiKey: number, version: number, groupId: string): object {
  const commit = { memberId: "m", generationId: 1, offset: 5 };
  switch (apiKey) {
    case API.offsetCommit:
      return offsetCommitBody(version, groupId, commit);
    case API.offsetFetch:
      return offsetFetchBody(groupId);
    case API.findCoordinator:
      return findCoordinatorBody(version, groupId);
    case API.joinGroup:
      return joinGroupBody(version, groupId, "");
    case API.heartbeat:
      return heartbeatBody(groupId, "m");
    case API.leaveGroup:
      return leaveGroupBody(version, groupId, ["m"]);
    case API.syncGroup:
      return syncGroupBody(version, groupId, "m");
    case API.describeGroups:
      return { groups: [groupId] };
    case API.listGroups:
      return {};
    case API.deleteGroups:
      return { groupsNames: [groupId] };
    case API.offsetDelete:
      return { groupId, topics: [{ name: "orders", partitions: [{ partitionIndex: 0 }] }] };
    default:
      throw new Error(`API ${apiKey} is not a group API`);
  }
}

/** Every `errorCode` field anywhere in a decoded body. */
export function errorCodesIn(value: unknown): number[] {
  if (Array.isArray(value)) return value.flatMap(errorCodesIn);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return [];
  return Object.entries(value).flatMap(([name, field]) =>
    name === "errorCode" && typeof field === "number" ? [field] : errorCodesIn(field),
  );
}

/**
 * The error codes of a response at `version`. The decoder gives fields a version lacks their
 * default, so the top-level code of FindCoordinator v4 and OffsetFetch v1 (fields those
 * versions do not have) is left out.
 */
export function errorCodesOf(apiKey: number, version: number, response: object): number[] {
  if (apiKey === API.findCoordinator && version >= 4) {
    return errorCodesIn(at(response, "coordinators"));
  }
  if (apiKey === API.offsetFetch && version < 2) return errorCodesIn(at(response, "topics"));
  return errorCodesIn(response);
}

/** A router with the broker's group APIs, every handler of which throws. */
export function failingRouter(broker: GroupBroker) {
  const router = new RequestRouter({ logger: broker.harness.logger });
  const failing = {
    register: <K extends ApiKey>(handler: ApiHandler<K>) => {
      const handle = (): never => {
        throw new Error("the handler fails on purpose");
      };
      router.register({ ...handler, handle });
    },
  };
  registerGroupApis(failing, broker.dependencies);
  return requestPath(router, broker.harness);
}

/** One round of the sweep: a group, and each API at the round's version. */
export interface RoundOf {
  readonly groupId: string;
  readonly round: number;
  version(name: keyof typeof ADVERTISED): number;
  call(name: keyof typeof ADVERTISED, body: object): Promise<Record<string, unknown>>;
}

/** Round `round` of the sweep over `groupId`. */
export function roundOf(broker: GroupBroker, groupId: string, round: number): RoundOf {
  const version = (name: keyof typeof ADVERTISED) => versionFor(round, ADVERTISED[name]);
  const call = (name: keyof typeof ADVERTISED, body: object) =>
    broker.call(API[name], version(name), body);
  return { groupId, round, version, call };
}

/** FindCoordinator, then JoinGroup (twice from v4: MEMBER_ID_REQUIRED first); the member id. */
export async function joinStep(step: RoundOf): Promise<string> {
  const { call, version, groupId } = step;
  const found = await call(
    "findCoordinator",
    findCoordinatorBody(version("findCoordinator"), groupId),
  );
  const codes = errorCodesOf(API.findCoordinator, version("findCoordinator"), found);
  assert.deepEqual(codes, [ErrorCode.NONE]);
  const joinVersion = version("joinGroup");
  let joined = await call("joinGroup", joinGroupBody(joinVersion, groupId, ""));
  if (joinVersion >= 4) {
    assert.equal(at(joined, "errorCode"), ErrorCode.MEMBER_ID_REQUIRED);
    const required = at(joined, "memberId") as string;
    joined = await call("joinGroup", joinGroupBody(joinVersion, groupId, required));
  }
  assert.equal(at(joined, "errorCode"), ErrorCode.NONE);
  assert.equal(at(joined, "generationId"), 1);
  assert.equal(at(joined, "protocolName"), "range");
  const memberId = at(joined, "memberId") as string;
  assert.equal(at(joined, "leader"), memberId);
  assert.equal(at(joined, "members", 0, "memberId"), memberId);
  assert.deepEqual(
    [...(at(joined, "members", 0, "metadata") as Uint8Array)],
    [...PROTOCOL_METADATA],
  );
  return memberId;
}

/** DeleteGroups of the live group, SyncGroup of the leader, and Heartbeats. */
export async function syncStep(step: RoundOf, memberId: string): Promise<void> {
  const { call, version, groupId } = step;
  const refused = await call("deleteGroups", { groupsNames: [groupId] });
  assert.equal(at(refused, "results", 0, "errorCode"), ErrorCode.NON_EMPTY_GROUP);
  const synced = await call("syncGroup", syncGroupBody(version("syncGroup"), groupId, memberId));
  assert.equal(at(synced, "errorCode"), ErrorCode.NONE);
  assert.deepEqual([...(at(synced, "assignment") as Uint8Array)], [...ASSIGNMENT]);
  const beat = await call("heartbeat", heartbeatBody(groupId, memberId));
  assert.equal(at(beat, "errorCode"), ErrorCode.NONE);
  const stranger = await call("heartbeat", heartbeatBody(groupId, "stranger"));
  assert.equal(at(stranger, "errorCode"), ErrorCode.UNKNOWN_MEMBER_ID);
}

/** OffsetCommit by the member (v0 commits outside any generation: refused), Describe, List. */
export async function commitStep(step: RoundOf, memberId: string): Promise<void> {
  const { call, version, groupId, round } = step;
  const commitVersion = version("offsetCommit");
  const commit = { memberId, generationId: 1, offset: 100 + round };
  const committed = await call("offsetCommit", offsetCommitBody(commitVersion, groupId, commit));
  const expected = commitVersion === 0 ? ErrorCode.UNKNOWN_MEMBER_ID : ErrorCode.NONE;
  assert.deepEqual(errorCodesIn(committed), [expected]);
  const described = await call("describeGroups", { groups: [groupId] });
  assert.equal(at(described, "groups", 0, "errorCode"), ErrorCode.NONE);
  assert.equal(at(described, "groups", 0, "groupState"), "Stable");
  assert.equal(at(described, "groups", 0, "protocolData"), "range");
  assert.equal(at(described, "groups", 0, "members", 0, "memberId"), memberId);
  const assigned = at(described, "groups", 0, "members", 0, "memberAssignment") as Uint8Array;
  assert.deepEqual([...assigned], [...ASSIGNMENT]);
  const listed = await call("listGroups", {});
  assert.equal(at(listed, "errorCode"), ErrorCode.NONE);
  const groups = at(listed, "groups") as { groupId: string; groupState: string }[];
  const listing = groups.find((group) => group.groupId === groupId);
  // The state is in ListGroups from v4 on; before, the field keeps its default.
  assert.equal(listing?.groupState, version("listGroups") >= 4 ? "Stable" : "");
}

/** LeaveGroup (and of a stranger), an admin commit, OffsetFetch, OffsetDelete, DeleteGroups. */
export async function leaveStep(step: RoundOf, memberId: string): Promise<void> {
  const { call, version, groupId, round } = step;
  const leaveVersion = version("leaveGroup");
  const left = await call("leaveGroup", leaveGroupBody(leaveVersion, groupId, [memberId]));
  assert.deepEqual(errorCodesIn(left), leaveVersion >= 3 ? [0, 0] : [0]);
  const stranger = await call("leaveGroup", leaveGroupBody(leaveVersion, groupId, ["x"]));
  const unknown = ErrorCode.UNKNOWN_MEMBER_ID;
  assert.deepEqual(errorCodesIn(stranger), leaveVersion >= 3 ? [0, unknown] : [unknown]);
  const commit = { memberId: "", generationId: -1, offset: 200 + round };
  const committed = await call(
    "offsetCommit",
    offsetCommitBody(version("offsetCommit"), groupId, commit),
  );
  assert.deepEqual(errorCodesIn(committed), [ErrorCode.NONE]);
  const fetched = await call("offsetFetch", offsetFetchBody(groupId));
  assert.equal(at(fetched, "topics", 0, "partitions", 0, "committedOffset"), 200 + round);
  const fetchCodes = errorCodesOf(API.offsetFetch, version("offsetFetch"), fetched);
  assert.deepEqual(fetchCodes, version("offsetFetch") >= 2 ? [0, 0] : [0]);
  const removed = await call("offsetDelete", bodyOf(API.offsetDelete, 0, groupId));
  assert.deepEqual(errorCodesIn(removed), [ErrorCode.NONE, ErrorCode.NONE]);
  const refetched = await call("offsetFetch", offsetFetchBody(groupId));
  assert.equal(at(refetched, "topics", 0, "partitions", 0, "committedOffset"), -1);
  const deleted = await call("deleteGroups", { groupsNames: [groupId] });
  assert.equal(at(deleted, "results", 0, "errorCode"), ErrorCode.NONE);
  const again = await call("deleteGroups", { groupsNames: [groupId] });
  assert.equal(at(again, "results", 0, "errorCode"), ErrorCode.GROUP_ID_NOT_FOUND);
}
