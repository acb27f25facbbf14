/**
 * OffsetForLeaderEpoch (23, v2-4, as Kafka 4 serves): per partition the largest leader epoch at
 * most the one asked and where it ends, checked against `currentLeaderEpoch`
 * (FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH). Only the leader answers, except to the debug
 * replica id -2, which any replica answers.
 */
import { ErrorCode } from "../../common/index.js";
import { AclOperation, AclResourceType } from "../../metadata/index.js";
import { ApiKey } from "../../protocol/index.js";
import type { ReplicaManager } from "../../replication/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export const OFFSET_FOR_LEADER_EPOCH_VERSIONS = { minVersion: 2, maxVersion: 4 } as const;
/** The replica id of a debugging client, which may read from followers. */
const DEBUGGING_REPLICA_ID = -2;

export function offsetForLeaderEpochHandler(
  replicaManager: ReplicaManager,
): ApiHandler<typeof ApiKey.OffsetForLeaderEpoch> {
  return defineHandler(ApiKey.OffsetForLeaderEpoch, {
    ...OFFSET_FOR_LEADER_EPOCH_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, { authorization }) => {
      const requireLeader = request.replicaId !== DEBUGGING_REPLICA_ID;
      // Kafka's KafkaApis: a follower (replica id >= 0) needs CLUSTER_ACTION on the cluster, a
      // client DESCRIBE on each topic; refused partitions are TOPIC_AUTHORIZATION_FAILED.
      const isFollowerAllowed =
        request.replicaId < 0 || authorization.authorizeCluster(AclOperation.CLUSTER_ACTION);
      const mayDescribe = (topic: string) =>
        isFollowerAllowed &&
        (request.replicaId >= 0 ||
          authorization.authorize(AclOperation.DESCRIBE, AclResourceType.TOPIC, topic));
      const refused = {
        errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
        leaderEpoch: -1,
        endOffset: -1,
      };
      const topics = request.topics.map((topic) => ({
        topic: topic.topic,
        partitions: topic.partitions.map((asked) => {
          if (!mayDescribe(topic.topic)) return { partition: asked.partition, ...refused };
          const lookup = replicaManager.getPartitionOrError({
            topic: topic.topic,
            partition: asked.partition,
          });
          const end =
            lookup.kind === "error"
              ? { errorCode: lookup.errorCode, leaderEpoch: -1, endOffset: -1 }
              : lookup.partition.lastOffsetForLeaderEpoch(asked.leaderEpoch, {
                  currentLeaderEpoch: asked.currentLeaderEpoch,
                  requireLeader,
                });
          return { partition: asked.partition, ...end };
        }),
      }));
      return respond({ throttleTimeMs: 0, topics });
    },
    errorResponse: (request, _context, errorCode) => {
      const topics = request.topics.map((topic) => ({
        topic: topic.topic,
        partitions: topic.partitions.map(({ partition }) => ({
          partition,
          errorCode,
          leaderEpoch: -1,
          endOffset: -1,
        })),
      }));
      return respond({ throttleTimeMs: 0, topics });
    },
  });
}
