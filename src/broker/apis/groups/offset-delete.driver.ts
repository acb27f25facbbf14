/**
 * OffsetDelete (47, v0, KIP-496): removes a group's committed offsets of some partitions with
 * tombstones written durably before the answer. As Kafka: a partition the metadata does not
 * hold is UNKNOWN_TOPIC_OR_PARTITION; a topic the group still consumes (its members' consumer
 * protocol subscriptions, or a KIP-848 group's topic names and regexes) is
 * GROUP_SUBSCRIBED_TO_TOPIC; a missing group is GROUP_ID_NOT_FOUND
 * and a non-Empty group outside the consumer protocol NON_EMPTY_GROUP, at the top level. As
 * Kafka's KafkaApis, it needs DELETE on the group (else GROUP_AUTHORIZATION_FAILED) and READ on
 * each topic (else TOPIC_AUTHORIZATION_FAILED for its partitions, before its existence is told).
 */
import { ErrorCode } from "../../../common/index.js";
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import {
  consumesTopic,
  offsetsDeletableError,
  type GroupCoordinator,
  type OffsetRecord,
} from "../../../coordinator/index.js";
import { ApiKey, type OffsetDeleteResponse } from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";
import { groupAuthorization } from "../resource-authorizations.js";

export const OFFSET_DELETE_VERSIONS = { minVersion: 0, maxVersion: 0 } as const;

export function offsetDeleteHandler(
  coordinator: GroupCoordinator,
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.OffsetDelete> {
  return defineHandler(ApiKey.OffsetDelete, {
    ...OFFSET_DELETE_VERSIONS,
    authorization: groupAuthorization(AclOperation.DELETE),
    handle: async (request, { authorization }) => {
      const { groupId } = request;
      // A top-level error replaces every partition's answer, as Kafka's response builder does.
      const refuse = (errorCode: number) =>
        respond<OffsetDeleteResponse>({ throttleTimeMs: 0, errorCode, topics: [] });
      if (groupId === "") return refuse(ErrorCode.INVALID_GROUP_ID);
      const refused = coordinator.errorCodeFor(groupId);
      if (refused !== ErrorCode.NONE) return refuse(refused);
      const classic = coordinator.state.group(groupId);
      const consumerGroup = coordinator.state.consumer.group(groupId);
      const deletable = offsetsDeletableError(classic, consumerGroup);
      if (deletable !== ErrorCode.NONE) return refuse(deletable);
      const known = metadataCache.image.topics.byName;
      const tombstones: OffsetRecord[] = [];
      const topics = request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => {
          const key = { groupId, topic: topic.name, partition: partitionIndex };
          let errorCode: number = ErrorCode.NONE;
          if (!authorization.authorize(AclOperation.READ, AclResourceType.TOPIC, topic.name)) {
            errorCode = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
          } else if (known.get(topic.name)?.partitions.get(partitionIndex) === undefined) {
            errorCode = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
          } else if (consumesTopic(classic, consumerGroup, topic.name)) {
            errorCode = ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC;
          } else if (coordinator.state.offsets.get(key) !== undefined) {
            tombstones.push({ key, value: null });
          }
          return { partitionIndex, errorCode };
        }),
      }));
      if (tombstones.length > 0) {
        const written = await coordinator.writeOffsets(groupId, tombstones);
        if (written !== ErrorCode.NONE) return refuse(written);
      }
      return respond({ throttleTimeMs: 0, errorCode: ErrorCode.NONE, topics });
    },
  });
}
