/**
 * AlterReplicaLogDirs (34, v1-2, the range Kafka 4 serves): moves replicas of this broker to
 * other log dirs of it (KIP-113). Each partition answers UNKNOWN_TOPIC_OR_PARTITION when the
 * metadata has no such partition, else what the replica manager says: LOG_DIR_NOT_FOUND for a
 * path not in `log.dirs`, KAFKA_STORAGE_ERROR when the target dir or the replica's dir is
 * offline, REPLICA_NOT_AVAILABLE when this broker hosts no replica of it, or NONE once the move
 * has started (it finishes in the background; DescribeLogDirs shows its future replica). A
 * partition named in several dirs goes to the last, as Kafka reads the request into a map.
 */
import { AclOperation } from "../../metadata/index.js";
import { ErrorCode } from "../../common/index.js";
import { ApiKey, type AlterReplicaLogDirsRequest } from "../../protocol/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { ReplicaManager } from "../../replication/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export const ALTER_REPLICA_LOG_DIRS_VERSIONS = { minVersion: 1, maxVersion: 2 } as const;

/** The target dir of each partition, by topic, in the order the request names them. */
function targetsOf(request: AlterReplicaLogDirsRequest): Map<string, Map<number, string>> {
  const byTopic = new Map<string, Map<number, string>>();
  for (const dir of request.dirs) {
    for (const topic of dir.topics) {
      const partitions = byTopic.get(topic.name) ?? new Map<number, string>();
      byTopic.set(topic.name, partitions);
      for (const partition of topic.partitions) partitions.set(partition, dir.path);
    }
  }
  return byTopic;
}

function isKnown(image: MetadataImage, topic: string, partition: number): boolean {
  return image.topics.byName.get(topic)?.partitions.has(partition) ?? false;
}

export function alterReplicaLogDirsHandler(
  replicaManager: ReplicaManager,
): ApiHandler<typeof ApiKey.AlterReplicaLogDirs> {
  return defineHandler(ApiKey.AlterReplicaLogDirs, {
    ...ALTER_REPLICA_LOG_DIRS_VERSIONS,
    authorization: { kind: "cluster", operation: AclOperation.ALTER },
    handle: async (request) => {
      const image = replicaManager.metadataImage;
      const results = [];
      for (const [topicName, partitions] of targetsOf(request)) {
        const answers = [];
        for (const [partitionIndex, path] of partitions) {
          const errorCode = isKnown(image, topicName, partitionIndex)
            ? await replicaManager.alterReplicaLogDir(
                { topic: topicName, partition: partitionIndex },
                path,
              )
            : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
          answers.push({ partitionIndex, errorCode });
        }
        results.push({ topicName, partitions: answers });
      }
      return respond({ throttleTimeMs: 0, results });
    },
    errorResponse: (request, _context, errorCode) =>
      respond({
        throttleTimeMs: 0,
        results: [...targetsOf(request)].map(([topicName, partitions]) => ({
          topicName,
          partitions: [...partitions.keys()].map((partitionIndex) => ({
            partitionIndex,
            errorCode,
          })),
        })),
      }),
  });
}
