/**
 * JoinGroup (11, v0-9), SyncGroup (14, v0-5), Heartbeat (12, v0-4) and LeaveGroup (13, v0-5):
 * thin handlers that fit the coordinator's answers to each version, static members
 * (`group.instance.id`, KIP-345) included from JoinGroup v5, SyncGroup, Heartbeat and
 * LeaveGroup v3.
 */
import { AclOperation } from "../../../metadata/index.js";
import { groupAuthorization } from "../resource-authorizations.js";
import type { GroupCoordinator } from "../../../coordinator/index.js";
import { ApiKey } from "../../../protocol/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";

export const JOIN_GROUP_VERSIONS = { minVersion: 0, maxVersion: 9 } as const;
export const SYNC_GROUP_VERSIONS = { minVersion: 0, maxVersion: 5 } as const;
export const HEARTBEAT_VERSIONS = { minVersion: 0, maxVersion: 4 } as const;
export const LEAVE_GROUP_VERSIONS = { minVersion: 0, maxVersion: 5 } as const;

const GROUP_READ = groupAuthorization(AclOperation.READ);

/** The JoinGroup handler; it waits for the join phase of the rebalance to complete. */
export function joinGroupHandler(
  coordinator: GroupCoordinator,
): ApiHandler<typeof ApiKey.JoinGroup> {
  return defineHandler(ApiKey.JoinGroup, {
    ...JOIN_GROUP_VERSIONS,
    authorization: GROUP_READ,
    handle: async (request, context) => {
      const version = context.header.apiVersion;
      const clientId = context.header.clientId ?? "";
      const { groupInstanceId } = request;
      const result = await coordinator.join(request.groupId, {
        memberId: request.memberId,
        groupInstanceId,
        clientId,
        clientHost: `/${context.connection.remoteHost}`,
        sessionTimeoutMs: request.sessionTimeoutMs,
        // v0 has no rebalance timeout: Kafka uses the session timeout.
        rebalanceTimeoutMs: version === 0 ? request.sessionTimeoutMs : request.rebalanceTimeoutMs,
        protocolType: request.protocolType,
        protocols: request.protocols,
        requiresKnownMemberId: version >= 4,
        // Kafka names a static member after its instance id.
        newMemberId: coordinator.newMemberId(groupInstanceId ?? clientId),
        supportsSkippingAssignment: version >= 9,
      });
      return respond({
        throttleTimeMs: 0,
        errorCode: result.errorCode,
        generationId: result.generationId,
        protocolType: result.protocolType,
        // Before v7 the field is not nullable: Kafka sends "" when no protocol is chosen.
        protocolName: result.protocolName ?? (version >= 7 ? null : ""),
        leader: result.leader,
        skipAssignment: result.skipAssignment,
        memberId: result.memberId,
        // The instance id is ignorable: the codec leaves it out before v5, as Kafka's writer.
        members: result.members,
      });
    },
  });
}

/** The SyncGroup handler; followers wait for the leader's assignment. */
export function syncGroupHandler(
  coordinator: GroupCoordinator,
): ApiHandler<typeof ApiKey.SyncGroup> {
  return defineHandler(ApiKey.SyncGroup, {
    ...SYNC_GROUP_VERSIONS,
    authorization: GROUP_READ,
    handle: async (request) => {
      const result = await coordinator.sync(request.groupId, {
        memberId: request.memberId,
        groupInstanceId: request.groupInstanceId,
        generationId: request.generationId,
        protocolType: request.protocolType,
        protocolName: request.protocolName,
        assignments: request.assignments,
      });
      return respond({ throttleTimeMs: 0, ...result });
    },
  });
}

export function heartbeatHandler(
  coordinator: GroupCoordinator,
): ApiHandler<typeof ApiKey.Heartbeat> {
  return defineHandler(ApiKey.Heartbeat, {
    ...HEARTBEAT_VERSIONS,
    authorization: GROUP_READ,
    handle: (request) => {
      const errorCode = coordinator.heartbeat(request.groupId, {
        memberId: request.memberId,
        groupInstanceId: request.groupInstanceId,
        generationId: request.generationId,
      });
      return respond({ throttleTimeMs: 0, errorCode });
    },
  });
}

/** The LeaveGroup handler: one member before v3, a batch of members from v3 on. */
export function leaveGroupHandler(
  coordinator: GroupCoordinator,
): ApiHandler<typeof ApiKey.LeaveGroup> {
  return defineHandler(ApiKey.LeaveGroup, {
    ...LEAVE_GROUP_VERSIONS,
    authorization: GROUP_READ,
    handle: (request, context) => {
      const version = context.header.apiVersion;
      const members =
        version >= 3
          ? request.members.map(({ memberId, groupInstanceId }) => ({ memberId, groupInstanceId }))
          : [{ memberId: request.memberId, groupInstanceId: null }];
      const left = coordinator.leave(request.groupId, members);
      if (version < 3) {
        return respond({ throttleTimeMs: 0, errorCode: left.errorCode || (left.members[0] ?? 0) });
      }
      return respond({
        throttleTimeMs: 0,
        errorCode: left.errorCode,
        members: left.members.map((errorCode, index) => ({
          memberId: members[index]?.memberId ?? "",
          groupInstanceId: members[index]?.groupInstanceId ?? null,
          errorCode,
        })),
      });
    },
  });
}
