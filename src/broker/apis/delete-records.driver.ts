/**
 * DeleteRecords (21, v0-2): moves each partition's log start offset up to the offset given (-1:
 * the high watermark), on the leader only, never past the high watermark (OFFSET_OUT_OF_RANGE)
 * and only for topics whose cleanup.policy includes delete (POLICY_VIOLATION). The answer is the
 * low watermark (the smallest log start offset over the replicas) right after the leader moved;
 * Kafka waits for followers to catch up before answering (DelayedDeleteRecords), which Sluice
 * does not yet, so with followers the low watermark may be lower than the offset asked.
 */
import { ErrorCode } from "../../common/index.js";
import { AclOperation, AclResourceType } from "../../metadata/index.js";
import { ApiKey } from "../../protocol/index.js";
import type { DeleteRecordsOutcome, ReplicaManager } from "../../replication/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export const DELETE_RECORDS_VERSIONS = { minVersion: 0, maxVersion: 2 } as const;

export function deleteRecordsHandler(
  replicaManager: ReplicaManager,
): ApiHandler<typeof ApiKey.DeleteRecords> {
  return defineHandler(ApiKey.DeleteRecords, {
    ...DELETE_RECORDS_VERSIONS,
    authorization: { kind: "handler" },
    handle: async (request, { authorization }) => {
      const topics = [];
      for (const topic of request.topics) {
        const partitions = [];
        // Kafka's KafkaApis: DELETE on each topic, checked before its existence.
        const type = AclResourceType.TOPIC;
        const isAllowed = authorization.authorize(AclOperation.DELETE, type, topic.name);
        for (const { partitionIndex, offset } of topic.partitions) {
          const lookup = replicaManager.getPartitionOrError({
            topic: topic.name,
            partition: partitionIndex,
          });
          const outcome: DeleteRecordsOutcome = !isAllowed
            ? { kind: "error", errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED }
            : lookup.kind === "error"
              ? { kind: "error", errorCode: lookup.errorCode }
              : await lookup.partition.deleteRecordsOnLeader(offset);
          partitions.push(
            outcome.kind === "deleted"
              ? { partitionIndex, lowWatermark: outcome.lowWatermark, errorCode: 0 }
              : { partitionIndex, lowWatermark: -1, errorCode: outcome.errorCode },
          );
        }
        topics.push({ name: topic.name, partitions });
      }
      return respond({ throttleTimeMs: 0, topics });
    },
    errorResponse: (request, _context, errorCode) => {
      const topics = request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({
          partitionIndex,
          lowWatermark: -1,
          errorCode,
        })),
      }));
      return respond({ throttleTimeMs: 0, topics });
    },
  });
}
