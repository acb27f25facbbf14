/**
 * OffsetCommit (8, v0-8) and OffsetFetch (9, v1-7): commits are checked against the group's
 * generation and member, written durably to the group's `__consumer_offsets` partition, and only
 * then answered and visible to OffsetFetch; a static member's commit (v7+) is fenced as Kafka's
 * validateOffsetCommit does. A partition the metadata does not know is answered
 * UNKNOWN_TOPIC_OR_PARTITION and not stored, before the group is looked at, as Kafka's
 * handleOffsetCommitRequest filters with its metadata cache; the other partitions still commit.
 */
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import { groupAuthorization } from "../resource-authorizations.js";
import { ErrorCode } from "../../../common/index.js";
import type { GroupCoordinator, OffsetRecord } from "../../../coordinator/index.js";
import {
  ApiKey,
  type OffsetCommitRequest,
  type OffsetCommitResponse,
} from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";

const UTF8 = new TextEncoder();

export const OFFSET_COMMIT_VERSIONS = { minVersion: 0, maxVersion: 8 } as const;
export const OFFSET_FETCH_VERSIONS = { minVersion: 1, maxVersion: 7 } as const;

export function offsetCommitHandler(
  coordinator: GroupCoordinator,
  clock: { nowMs(): number },
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.OffsetCommit> {
  return defineHandler(ApiKey.OffsetCommit, {
    ...OFFSET_COMMIT_VERSIONS,
    authorization: groupAuthorization(AclOperation.READ),
    handle: async (request, context) => {
      const version = context.header.apiVersion;
      // Kafka's KafkaApis: READ on each topic, checked before the topic's existence.
      const isReadable = (topic: string) =>
        context.authorization.authorize(AclOperation.READ, AclResourceType.TOPIC, topic);
      const unauthorized = new Set(
        request.topics
          .filter((topic) => !isReadable(topic.name))
          .flatMap((topic) =>
            topic.partitions.map((p) => partitionKey(topic.name, p.partitionIndex)),
          ),
      );
      const unknown = unknownPartitionsOf(request, metadataCache);
      for (const key of unauthorized) unknown.add(key);
      const answer = (codeOf: (topic: string, partition: number) => number) =>
        respond<OffsetCommitResponse>({
          throttleTimeMs: 0,
          topics: request.topics.map((topic) => ({
            name: topic.name,
            partitions: topic.partitions.map(({ partitionIndex }) => ({
              partitionIndex,
              errorCode: unauthorized.has(partitionKey(topic.name, partitionIndex))
                ? ErrorCode.TOPIC_AUTHORIZATION_FAILED
                : unknown.has(partitionKey(topic.name, partitionIndex))
                  ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                  : codeOf(topic.name, partitionIndex),
            })),
          })),
        });
      const known = withoutPartitions(request, unknown);
      // Nothing left to commit: Kafka answers without asking the coordinator.
      if (known.topics.length === 0) return answer(() => ErrorCode.NONE);
      const refused = topLevelRefusal(coordinator, known, version, clock.nowMs());
      if (refused !== ErrorCode.NONE) return answer(() => refused);
      const { records, tooLarge } = recordsOf(known, {
        version,
        nowMs: clock.nowMs(),
        metadataMaxBytes: coordinator.state.config.offsetMetadataMaxBytes,
        retentionMs: coordinator.state.config.offsetsRetentionMs,
      });
      const written =
        records.length === 0
          ? ErrorCode.NONE
          : await coordinator.writeOffsets(request.groupId, records);
      return answer((topic, partition) =>
        tooLarge.has(partitionKey(topic, partition))
          ? ErrorCode.OFFSET_METADATA_TOO_LARGE
          : written,
      );
    },
    errorResponse: (request, _context, errorCode) => {
      const topics = request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode })),
      }));
      return respond({ throttleTimeMs: 0, topics });
    },
  });
}

function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/** The partitions of a commit that the current metadata image does not hold. */
function unknownPartitionsOf(request: OffsetCommitRequest, metadataCache: MetadataCache) {
  const topics = metadataCache.image.topics.byName;
  const unknown = new Set<string>();
  for (const topic of request.topics) {
    const partitions = topics.get(topic.name)?.partitions;
    for (const { partitionIndex } of topic.partitions) {
      if (partitions?.get(partitionIndex) === undefined) {
        unknown.add(partitionKey(topic.name, partitionIndex));
      }
    }
  }
  return unknown;
}

/** The commit without the partitions of `left`, and without topics left empty. */
function withoutPartitions(request: OffsetCommitRequest, left: Set<string>): OffsetCommitRequest {
  const topics = request.topics
    .map((topic) => ({
      ...topic,
      partitions: topic.partitions.filter(
        ({ partitionIndex }) => !left.has(partitionKey(topic.name, partitionIndex)),
      ),
    }))
    .filter((topic) => topic.partitions.length > 0);
  return { ...request, topics };
}

/** The error every partition of a commit gets, or NONE when the commit may be written. */
function topLevelRefusal(
  coordinator: GroupCoordinator,
  request: OffsetCommitRequest,
  version: number,
  nowMs: number,
): number {
  if (request.groupId === "") return ErrorCode.INVALID_GROUP_ID;
  const refused = coordinator.errorCodeFor(request.groupId);
  if (refused !== ErrorCode.NONE) return refused;
  // v0 commits outside any generation, like an admin commit.
  const commit =
    version === 0
      ? { memberId: "", groupInstanceId: null, generationId: -1 }
      : {
          memberId: request.memberId,
          groupInstanceId: request.groupInstanceId,
          generationId: request.generationIdOrMemberEpoch,
        };
  return coordinator.state.validateCommit(request.groupId, commit, nowMs);
}

/** The records of a commit, and the partitions refused for too long metadata. */
function recordsOf(
  request: OffsetCommitRequest,
  at: {
    readonly version: number;
    readonly nowMs: number;
    readonly metadataMaxBytes: number;
    readonly retentionMs: number;
  },
): { records: OffsetRecord[]; tooLarge: Set<string> } {
  const records: OffsetRecord[] = [];
  const tooLarge = new Set<string>();
  for (const topic of request.topics) {
    for (const partition of topic.partitions) {
      const metadata = partition.committedMetadata ?? "";
      if (UTF8.encode(metadata).length > at.metadataMaxBytes) {
        tooLarge.add(partitionKey(topic.name, partition.partitionIndex));
        continue;
      }
      // v1 may carry the commit time; v2-4 a retention time; both give the record an expiry.
      const givenMs = at.version === 1 ? partition.commitTimestamp : -1;
      const commitTimestampMs = givenMs >= 0 ? givenMs : at.nowMs;
      const retentionMs = at.version >= 2 && at.version <= 4 ? request.retentionTimeMs : -1;
      const expireTimestampMs =
        retentionMs >= 0
          ? commitTimestampMs + retentionMs
          : givenMs >= 0
            ? commitTimestampMs + at.retentionMs
            : -1;
      records.push({
        key: { groupId: request.groupId, topic: topic.name, partition: partition.partitionIndex },
        value: {
          offset: partition.committedOffset,
          leaderEpoch: at.version >= 6 ? partition.committedLeaderEpoch : -1,
          metadata,
          commitTimestampMs,
          expireTimestampMs,
        },
      });
    }
  }
  return { records, tooLarge };
}

/** The OffsetFetch handler: the partitions asked for, or every one (topics null, v2+). */
export function offsetFetchHandler(
  coordinator: GroupCoordinator,
): ApiHandler<typeof ApiKey.OffsetFetch> {
  return defineHandler(ApiKey.OffsetFetch, {
    ...OFFSET_FETCH_VERSIONS,
    authorization: groupAuthorization(AclOperation.DESCRIBE),
    handle: (request, context) => {
      const version = context.header.apiVersion;
      const refused = coordinator.errorCodeFor(request.groupId);
      // Kafka's KafkaApis: DESCRIBE on each topic; all topics means those the principal may
      // DESCRIBE, a named one it may not is answered TOPIC_AUTHORIZATION_FAILED.
      const mayDescribe = (topic: string) =>
        context.authorization.authorize(AclOperation.DESCRIBE, AclResourceType.TOPIC, topic);
      const asked =
        request.topics ??
        allCommitted(coordinator, request.groupId).filter((topic) => mayDescribe(topic.name));
      const topics = asked.map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex) => {
          if (!mayDescribe(topic.name)) {
            const errorCode = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
            return { partitionIndex, committedOffset: -1, metadata: "", errorCode };
          }
          const committed =
            refused === ErrorCode.NONE
              ? coordinator.state.offsets.get({
                  groupId: request.groupId,
                  topic: topic.name,
                  partition: partitionIndex,
                })
              : undefined;
          return {
            partitionIndex,
            committedOffset: committed?.offset ?? -1,
            committedLeaderEpoch: committed?.leaderEpoch ?? -1,
            metadata: committed?.metadata ?? "",
            // v1 has no top-level error: each partition carries the coordinator's.
            errorCode: version < 2 ? refused : ErrorCode.NONE,
          };
        }),
      }));
      return respond({ throttleTimeMs: 0, errorCode: refused, topics });
    },
    errorResponse: (request, _context, errorCode) => {
      const topics = (request.topics ?? []).map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex) => ({
          partitionIndex,
          committedOffset: -1,
          errorCode,
        })),
      }));
      return respond({ throttleTimeMs: 0, errorCode, topics });
    },
  });
}

function allCommitted(
  coordinator: GroupCoordinator,
  groupId: string,
): { name: string; partitionIndexes: number[] }[] {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of coordinator.state.offsets.offsetsOf(groupId)) {
    const partitions = byTopic.get(topic) ?? [];
    partitions.push(partition);
    byTopic.set(topic, partitions);
  }
  return [...byTopic].map(([name, partitionIndexes]) => ({ name, partitionIndexes }));
}
