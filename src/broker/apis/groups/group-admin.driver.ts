/**
 * DescribeGroups (15, v0-5), ListGroups (16, v0-5: v4 filters by state, v5 by group type) and
 * DeleteGroups (42, v0-2). A group is
 * deleted only when Empty (NON_EMPTY_GROUP otherwise); its offsets are removed with tombstones
 * written durably before the answer.
 */
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import { ErrorCode } from "../../../common/index.js";
import type { GroupCoordinator, OffsetRecord } from "../../../coordinator/index.js";
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  ApiKey,
  authorizedOperations,
} from "../../../protocol/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";

export const DESCRIBE_GROUPS_VERSIONS = { minVersion: 0, maxVersion: 5 } as const;
export const LIST_GROUPS_VERSIONS = { minVersion: 0, maxVersion: 5 } as const;
export const DELETE_GROUPS_VERSIONS = { minVersion: 0, maxVersion: 2 } as const;

export function describeGroupsHandler(
  coordinator: GroupCoordinator,
): ApiHandler<typeof ApiKey.DescribeGroups> {
  return defineHandler(ApiKey.DescribeGroups, {
    ...DESCRIBE_GROUPS_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, { authorization }) => {
      const groups = request.groups.map((groupId) => {
        const isAllowed = (operation: number) =>
          authorization.authorize(operation, AclResourceType.GROUP, groupId);
        // Kafka's KafkaApis: DESCRIBE on each group, checked before the coordinator is asked.
        const refused = !isAllowed(AclOperation.DESCRIBE)
          ? ErrorCode.GROUP_AUTHORIZATION_FAILED
          : coordinator.errorCodeFor(groupId);
        const described = coordinator.state.describe(groupId);
        const base = {
          groupId,
          groupInstanceId: null,
          authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
        };
        if (refused !== ErrorCode.NONE) {
          const empty = { groupState: "", protocolType: "", protocolData: "", members: [] };
          return { ...base, ...empty, errorCode: refused };
        }
        // As Kafka, only a group described without error gets its operations (v3+, when asked).
        const asked = request.includeAuthorizedOperations && described.errorCode === ErrorCode.NONE;
        return {
          ...base,
          authorizedOperations: authorizedOperations("group", asked, isAllowed),
          errorCode: described.errorCode,
          groupState: described.state,
          protocolType: described.protocolType,
          protocolData: described.protocolName,
          members: described.members.map((member) => ({
            memberId: member.memberId,
            // Ignorable: the codec leaves it out before v4.
            groupInstanceId: member.groupInstanceId,
            clientId: member.clientId,
            clientHost: member.clientHost,
            memberMetadata: member.metadata,
            memberAssignment: member.assignment,
          })),
        };
      });
      return respond({ throttleTimeMs: 0, groups });
    },
    errorResponse: (request, _context, errorCode) => {
      const groups = request.groups.map((groupId) => ({ groupId, errorCode, members: [] }));
      return respond({ throttleTimeMs: 0, groups });
    },
  });
}

/** The ListGroups handler; v4 filters by state and v5 by type (case-insensitive, as Kafka). */
export function listGroupsHandler(
  coordinator: GroupCoordinator,
): ApiHandler<typeof ApiKey.ListGroups> {
  return defineHandler(ApiKey.ListGroups, {
    ...LIST_GROUPS_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, { authorization }) => {
      // Kafka's KafkaApis: DESCRIBE on the cluster lists every group, else those the principal
      // may DESCRIBE.
      const mayListAll = authorization.authorizeCluster(AclOperation.DESCRIBE);
      const mayDescribe = (groupId: string) =>
        mayListAll ||
        authorization.authorize(AclOperation.DESCRIBE, AclResourceType.GROUP, groupId);
      const states = new Set((request.statesFilter ?? []).map((state) => state.toLowerCase()));
      const types = new Set((request.typesFilter ?? []).map((type) => type.toLowerCase()));
      const groups = coordinator.state
        .list()
        .filter((group) => coordinator.statusOf(group.groupId) === "active")
        .filter((group) => mayDescribe(group.groupId))
        .filter((group) => states.size === 0 || states.has(group.state.toLowerCase()))
        .filter((group) => types.size === 0 || types.has(group.groupType))
        .map((group) => ({
          groupId: group.groupId,
          protocolType: group.protocolType,
          groupState: group.state,
          groupType: group.groupType,
        }));
      return respond({ throttleTimeMs: 0, errorCode: ErrorCode.NONE, groups });
    },
  });
}

export function deleteGroupsHandler(
  coordinator: GroupCoordinator,
): ApiHandler<typeof ApiKey.DeleteGroups> {
  return defineHandler(ApiKey.DeleteGroups, {
    ...DELETE_GROUPS_VERSIONS,
    authorization: { kind: "handler" },
    handle: async (request, { authorization }) => {
      const results = [];
      for (const groupId of request.groupsNames) {
        // Kafka's KafkaApis: DELETE on each group.
        const errorCode = authorization.authorize(
          AclOperation.DELETE,
          AclResourceType.GROUP,
          groupId,
        )
          ? await deleteGroup(coordinator, groupId)
          : ErrorCode.GROUP_AUTHORIZATION_FAILED;
        results.push({ groupId, errorCode });
      }
      return respond({ throttleTimeMs: 0, results });
    },
    errorResponse: (request, _context, errorCode) => {
      const results = request.groupsNames.map((groupId) => ({ groupId, errorCode }));
      return respond({ throttleTimeMs: 0, results });
    },
  });
}

async function deleteGroup(coordinator: GroupCoordinator, groupId: string): Promise<number> {
  const refused = coordinator.errorCodeFor(groupId);
  if (refused !== ErrorCode.NONE) return refused;
  const deletable = coordinator.state.checkDeletable(groupId);
  if (deletable !== ErrorCode.NONE) return deletable;
  const tombstones: OffsetRecord[] = coordinator.state.offsets
    .offsetsOf(groupId)
    .map(({ topic, partition }) => ({ key: { groupId, topic, partition }, value: null }));
  if (tombstones.length > 0) {
    const written = await coordinator.writeOffsets(groupId, tombstones);
    if (written !== ErrorCode.NONE) return written;
  }
  // A member may have joined while the tombstones were written; Kafka would refuse then too.
  const stillDeletable = coordinator.state.checkDeletable(groupId);
  if (stillDeletable !== ErrorCode.NONE) return stillDeletable;
  // The group's own records (a classic group's GroupMetadata, or a consumer group's) go too.
  return coordinator.removeGroup(groupId);
}
