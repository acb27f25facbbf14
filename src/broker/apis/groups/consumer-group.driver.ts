/**
 * ConsumerGroupHeartbeat (68, v0-1) and ConsumerGroupDescribe (69, v0), the consumer group
 * protocol of KIP-848: thin handlers over the coordinator, which keeps every rule. Topics are
 * named by id on the wire; the metadata image maps them. Version 1 adds the regular-expression
 * subscription (SubscribedTopicRegex), resolved by the coordinator against the image's topics.
 * As Kafka's KafkaApis: a heartbeat needs READ on its group, and ConsumerGroupDescribe DESCRIBE
 * on each group (else GROUP_AUTHORIZATION_FAILED for that group), with the operations the
 * principal may do on the group as its authorized operations.
 */
import { ErrorCode, type Uuid } from "../../../common/index.js";
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import type {
  Assignment,
  ConsumerGroup,
  GroupCoordinator,
  TopicCatalog,
} from "../../../coordinator/index.js";
import { ApiKey, authorizedOperations } from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";
import { groupAuthorization } from "../resource-authorizations.js";

export const CONSUMER_GROUP_HEARTBEAT_VERSIONS = { minVersion: 0, maxVersion: 1 } as const;
export const CONSUMER_GROUP_DESCRIBE_VERSIONS = { minVersion: 0, maxVersion: 0 } as const;

export function consumerGroupHeartbeatHandler(
  coordinator: GroupCoordinator,
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.ConsumerGroupHeartbeat> {
  return defineHandler(ApiKey.ConsumerGroupHeartbeat, {
    ...CONSUMER_GROUP_HEARTBEAT_VERSIONS,
    authorization: groupAuthorization(AclOperation.READ),
    handle: async (request, context) => {
      const result = await coordinator.consumerHeartbeat(
        request.groupId,
        {
          memberId: request.memberId,
          memberEpoch: request.memberEpoch,
          instanceId: request.instanceId,
          rackId: request.rackId,
          rebalanceTimeoutMs: request.rebalanceTimeoutMs,
          subscribedTopicNames: request.subscribedTopicNames,
          subscribedTopicRegex: request.subscribedTopicRegex,
          serverAssignor: request.serverAssignor,
          topicPartitions: request.topicPartitions,
          clientId: context.header.clientId ?? "",
          clientHost: `/${context.connection.remoteHost}`,
        },
        topicCatalog(metadataCache),
      );
      const assignment =
        result.assignment === null ? null : { topicPartitions: wireTopics(result.assignment) };
      return respond({
        throttleTimeMs: 0,
        errorCode: result.errorCode,
        errorMessage: result.errorMessage,
        memberId: result.memberId === "" ? null : result.memberId,
        memberEpoch: result.memberEpoch,
        heartbeatIntervalMs: result.heartbeatIntervalMs,
        assignment,
      });
    },
  });
}

export function consumerGroupDescribeHandler(
  coordinator: GroupCoordinator,
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.ConsumerGroupDescribe> {
  return defineHandler(ApiKey.ConsumerGroupDescribe, {
    ...CONSUMER_GROUP_DESCRIBE_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, { authorization }) => {
      const groups = request.groupIds.map((groupId) => {
        const isAllowed = (operation: number) =>
          authorization.authorize(operation, AclResourceType.GROUP, groupId);
        if (!isAllowed(AclOperation.DESCRIBE)) {
          const errorCode = ErrorCode.GROUP_AUTHORIZATION_FAILED;
          return { ...emptyDescription(groupId), errorCode, errorMessage: null };
        }
        const refused = coordinator.errorCodeFor(groupId);
        const group = coordinator.state.consumer.group(groupId);
        if (refused !== ErrorCode.NONE || group === undefined) {
          const errorCode = refused !== ErrorCode.NONE ? refused : ErrorCode.GROUP_ID_NOT_FOUND;
          const errorMessage = group === undefined ? `Group ${groupId} not found.` : null;
          return { ...emptyDescription(groupId), errorCode, errorMessage };
        }
        const asked = request.includeAuthorizedOperations;
        const described = describe(group, metadataCache);
        const operations = authorizedOperations("group", asked, isAllowed);
        return { ...described, authorizedOperations: operations };
      });
      return respond({ throttleTimeMs: 0, groups });
    },
    errorResponse: (request, _context, errorCode) => {
      const groups = request.groupIds.map((groupId) => ({
        ...emptyDescription(groupId),
        errorCode,
        errorMessage: null,
      }));
      return respond({ throttleTimeMs: 0, groups });
    },
  });
}

function describe(group: ConsumerGroup, metadataCache: MetadataCache) {
  const names = (topicId: string) => metadataCache.image.topics.byId.get(topicId as Uuid)?.name;
  return {
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    groupId: group.groupId,
    groupState: group.state,
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    assignorName: group.assignorName,
    members: group.describeMembers().map((member) => ({
      memberId: member.memberId,
      instanceId: member.instanceId,
      rackId: member.rackId,
      memberEpoch: member.memberEpoch,
      clientId: member.clientId,
      clientHost: member.clientHost,
      subscribedTopicNames: [...member.subscribedTopicNames],
      subscribedTopicRegex: member.subscribedTopicRegex,
      assignment: { topicPartitions: namedTopics(member.assignment, names) },
      targetAssignment: { topicPartitions: namedTopics(member.targetAssignment, names) },
    })),
  };
}

function emptyDescription(groupId: string) {
  const epochs = { groupEpoch: 0, assignmentEpoch: 0, assignorName: "" };
  return { groupId, groupState: "", ...epochs, members: [], authorizedOperations: 0 };
}

/** The image's topics; the persistent map of names is a new object whenever a topic changes. */
function topicCatalog(metadataCache: MetadataCache): TopicCatalog {
  const topics = metadataCache.image.topics.byName;
  return {
    topic: (name) => {
      const topic = topics.get(name);
      if (topic === undefined) return undefined;
      return { topicId: topic.id, partitionCount: topic.partitions.size };
    },
    names: () => topics.keys(),
    version: topics,
  };
}

function wireTopics(assignment: Assignment) {
  return [...assignment].map(([topicId, partitions]) => ({
    topicId,
    partitions: [...partitions].sort((a, b) => a - b),
  }));
}

/** The assignment with topic names, leaving out topics the image no longer holds, as Kafka. */
function namedTopics(assignment: Assignment, nameOf: (topicId: string) => string | undefined) {
  return wireTopics(assignment).flatMap((topic) => {
    const topicName = nameOf(topic.topicId);
    return topicName === undefined ? [] : [{ ...topic, topicName }];
  });
}
