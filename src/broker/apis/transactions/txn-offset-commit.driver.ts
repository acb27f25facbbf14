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
 *
 * With `transaction.partition.verification.enable`, the first commit of a transaction on the
 * group's offsets partition is verified with the transaction coordinator first (KIP-890, as
 * Kafka's group coordinator does): the offsets partition must be in the transaction
 * (AddOffsetsToTxn), else every partition is INVALID_TXN_STATE and nothing is written.
 */
import { ErrorCode } from "../../../common/index.js";
import {
  OFFSETS_TOPIC,
  type GroupCoordinator,
  type OffsetRecord,
} from "../../../coordinator/index.js";
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import {
  ApiKey,
  type TxnOffsetCommitRequest,
  type TxnOffsetCommitResponse,
} from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";
import type { ProduceVerifier } from "../produce-verification.js";
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

export interface TxnOffsetCommitDependencies {
  readonly metadataCache: MetadataCache;
  readonly clock: { nowMs(): number };
  readonly verifier?: Pick<ProduceVerifier, "verifyOffsetCommit">;
}

export function txnOffsetCommitHandler(
  coordinator: GroupCoordinator,
  dependencies: TxnOffsetCommitDependencies,
): ApiHandler<typeof ApiKey.TxnOffsetCommit> {
  return defineHandler(ApiKey.TxnOffsetCommit, {
    ...TXN_OFFSET_COMMIT_VERSIONS,
    authorization: TRANSACTIONAL_ID_WRITE,
    handle: async (request, context) => {
      const version = context.header.apiVersion;
      const mayRead = (type: number, name: string) =>
        context.authorization.authorize(AclOperation.READ, type, name);
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
      const { records, tooLarge } = offsetRecordsOf(request, version, {
        isKnown,
        maxBytes: coordinator.state.config.offsetMetadataMaxBytes,
        nowMs: dependencies.clock.nowMs(),
      });
      const written =
        records.length === 0
          ? ErrorCode.NONE
          : await commitTransactionally(coordinator, dependencies.verifier, request, records);
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

/**
 * The offset records of the request's known partitions, and the partitions (`topic\0partition`)
 * whose metadata is longer than `offset.metadata.max.bytes`.
 */
function offsetRecordsOf(
  request: TxnOffsetCommitRequest,
  version: number,
  limits: {
    readonly isKnown: (topic: string, partition: number) => boolean;
    readonly maxBytes: number;
    readonly nowMs: number;
  },
) {
  const records: OffsetRecord[] = [];
  const tooLarge = new Set<string>();
  for (const topic of request.topics) {
    for (const partition of topic.partitions) {
      const { partitionIndex } = partition;
      if (!limits.isKnown(topic.name, partitionIndex)) continue;
      const metadata = partition.committedMetadata ?? "";
      if (UTF8.encode(metadata).length > limits.maxBytes) {
        tooLarge.add(`${topic.name}\u0000${partitionIndex}`);
        continue;
      }
      records.push({
        key: { groupId: request.groupId, topic: topic.name, partition: partitionIndex },
        value: {
          offset: partition.committedOffset,
          leaderEpoch: version >= 2 ? partition.committedLeaderEpoch : -1,
          metadata,
          commitTimestampMs: limits.nowMs,
          expireTimestampMs: -1,
        },
      });
    }
  }
  return { records, tooLarge };
}

/**
 * Writes `records` as the producer's transactional batch, verified first when a verifier is
 * given; NONE once durable, else the error every written partition answers.
 */
async function commitTransactionally(
  coordinator: GroupCoordinator,
  verifier: Pick<ProduceVerifier, "verifyOffsetCommit"> | undefined,
  request: TxnOffsetCommitRequest,
  records: readonly OffsetRecord[],
): Promise<number> {
  const { transactionalId, producerId, producerEpoch, groupId } = request;
  const producer = { producerId, producerEpoch };
  if (verifier === undefined) return coordinator.writeOffsets(groupId, records, producer);
  const offsets = { topic: OFFSETS_TOPIC, partition: coordinator.partitionFor(groupId) };
  const checked = await verifier.verifyOffsetCommit({ transactionalId, ...producer }, offsets);
  if (checked.kind === "refused") return checked.errorCode;
  const { verification } = checked;
  return coordinator.writeOffsets(groupId, records, { ...producer, verification });
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
