/**
 * TxnOffsetCommit (28, v0-3): a transactional producer commits a group's offsets inside its
 * transaction (KIP-98, KIP-447). The offsets are written to the group's `__consumer_offsets`
 * partition as a transactional batch of the producer (its epoch checked by that partition, so a
 * fenced producer gets INVALID_PRODUCER_EPOCH) and become the group's offsets only when the
 * transaction's COMMIT marker is written there; an ABORT drops them.
 *
 * As Kafka's group coordinator: a commit without member id, generation and instance id (v0-2,
 * or an anonymous v3) is accepted for any live group, and one that names a member is checked as
 * an OffsetCommit is, except that a rebalance in progress does not refuse it. A partition the
 * metadata does not know is UNKNOWN_TOPIC_OR_PARTITION, too long metadata
 * OFFSET_METADATA_TOO_LARGE; below v2 COORDINATOR_LOAD_IN_PROGRESS is answered
 * COORDINATOR_NOT_AVAILABLE, which older clients handle. As Kafka's KafkaApis, it needs WRITE on
 * the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), READ on the group
 * (GROUP_AUTHORIZATION_FAILED) and READ on each topic (TOPIC_AUTHORIZATION_FAILED for its
 * partitions, before their existence is looked at).
 */
import { ErrorCode } from "../../../common/index.js";
import type { GroupCoordinator, OffsetRecord } from "../../../coordinator/index.js";
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import {
  ApiKey,
  type TxnOffsetCommitRequest,
  type TxnOffsetCommitResponse,
} from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";
import { TRANSACTIONAL_ID_WRITE } from "../resource-authorizations.js";

export const TXN_OFFSET_COMMIT_VERSIONS = { minVersion: 0, maxVersion: 3 } as const;

const UTF8 = new TextEncoder();

function answerOf(
  request: TxnOffsetCommitRequest,
  version: number,
  codeOf: (topic: string, partition: number) => number,
) {
  const shown = (errorCode: number): number =>
    version < 2 && errorCode === ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
      ? ErrorCode.COORDINATOR_NOT_AVAILABLE
      : errorCode;
  return respond<TxnOffsetCommitResponse>({
    throttleTimeMs: 0,
    topics: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map(({ partitionIndex }) => ({
        partitionIndex,
        errorCode: shown(codeOf(topic.name, partitionIndex)),
      })),
    })),
  });
}

export function txnOffsetCommitHandler(
  coordinator: GroupCoordinator,
  dependencies: { readonly metadataCache: MetadataCache; readonly clock: { nowMs(): number } },
): ApiHandler<typeof ApiKey.TxnOffsetCommit> {
  return defineHandler(ApiKey.TxnOffsetCommit, {
    ...TXN_OFFSET_COMMIT_VERSIONS,
    authorization: TRANSACTIONAL_ID_WRITE,
    handle: async (request, context) => {
      const version = context.header.apiVersion;
      const { authorization } = context;
      const mayRead = (type: number, name: string) =>
        authorization.authorize(AclOperation.READ, type, name);
      if (!mayRead(AclResourceType.GROUP, request.groupId)) {
        return answerOf(request, version, () => ErrorCode.GROUP_AUTHORIZATION_FAILED);
      }
      const topics = dependencies.metadataCache.image.topics.byName;
      // TOPIC_AUTHORIZATION_FAILED or UNKNOWN_TOPIC_OR_PARTITION, else NONE.
      const checkOf = (topic: string, partition: number): number => {
        if (!mayRead(AclResourceType.TOPIC, topic)) return ErrorCode.TOPIC_AUTHORIZATION_FAILED;
        const isKnown = topics.get(topic)?.partitions.has(partition) === true;
        return isKnown ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
      };
      const isKnown = (topic: string, partition: number) =>
        checkOf(topic, partition) === ErrorCode.NONE;
      const refused = refusalOf(coordinator, request, dependencies.clock.nowMs());
      if (refused !== ErrorCode.NONE) {
        return answerOf(request, version, (topic, partition) =>
          isKnown(topic, partition) ? refused : checkOf(topic, partition),
        );
      }
      const nowMs = dependencies.clock.nowMs();
      const maxBytes = coordinator.state.config.offsetMetadataMaxBytes;
      const records: OffsetRecord[] = [];
      const tooLarge = new Set<string>();
      for (const topic of request.topics) {
        for (const partition of topic.partitions) {
          const { partitionIndex } = partition;
          if (!isKnown(topic.name, partitionIndex)) continue;
          const metadata = partition.committedMetadata ?? "";
          if (UTF8.encode(metadata).length > maxBytes) {
            tooLarge.add(`${topic.name}\u0000${partitionIndex}`);
            continue;
          }
          records.push({
            key: { groupId: request.groupId, topic: topic.name, partition: partitionIndex },
            value: {
              offset: partition.committedOffset,
              leaderEpoch: version >= 2 ? partition.committedLeaderEpoch : -1,
              metadata,
              commitTimestampMs: nowMs,
              expireTimestampMs: -1,
            },
          });
        }
      }
      const { producerId, producerEpoch } = request;
      const written =
        records.length === 0
          ? ErrorCode.NONE
          : await coordinator.writeOffsets(request.groupId, records, { producerId, producerEpoch });
      return answerOf(request, version, (topic, partition) => {
        if (!isKnown(topic, partition)) return checkOf(topic, partition);
        if (tooLarge.has(`${topic}\u0000${partition}`)) return ErrorCode.OFFSET_METADATA_TOO_LARGE;
        return written;
      });
    },
    errorResponse: (request, context, errorCode) =>
      answerOf(request, context.header.apiVersion, () => errorCode),
  });
}

/** The error every partition gets, or NONE (Kafka's validateTransactionalOffsetCommit). */
function refusalOf(
  coordinator: GroupCoordinator,
  request: TxnOffsetCommitRequest,
  nowMs: number,
): number {
  if (request.groupId === "") return ErrorCode.INVALID_GROUP_ID;
  const notServed = coordinator.errorCodeFor(request.groupId);
  if (notServed !== ErrorCode.NONE) return notServed;
  const { memberId, groupInstanceId, generationId } = request;
  const isAnonymous = generationId < 0 && memberId === "" && groupInstanceId === null;
  const checked = coordinator.state.validateCommit(
    request.groupId,
    { memberId, groupInstanceId, generationId },
    nowMs,
  );
  switch (checked) {
    case ErrorCode.REBALANCE_IN_PROGRESS:
      // The group's state does not bind transactional commits.
      return ErrorCode.NONE;
    case ErrorCode.STALE_MEMBER_EPOCH:
      return isAnonymous ? ErrorCode.NONE : ErrorCode.ILLEGAL_GENERATION;
    case ErrorCode.UNKNOWN_MEMBER_ID:
    case ErrorCode.ILLEGAL_GENERATION:
      // Clients before KIP-447 commit without a member: accepted for any live group.
      return isAnonymous ? ErrorCode.NONE : checked;
    default:
      return checked;
  }
}
