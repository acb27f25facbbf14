/**
 * One AssignReplicasToDirs request built from queued replica-to-dir assignments, grouped by dir
 * and topic as Kafka's AssignmentsManager groups them, and each assignment's error code read back
 * from the response.
 */
import { ErrorCode } from "../../common/index.js";
import type {
  AssignReplicasToDirsRequest,
  AssignReplicasToDirsResponse,
} from "../../protocol/index.js";
import type { DirectoryAssignment } from "../../replication/index.js";

/** The request carrying `batch` for the broker `sender` names. */
export function assignReplicasToDirsRequest(
  sender: { readonly brokerId: number; readonly brokerEpoch: number },
  batch: readonly DirectoryAssignment[],
): AssignReplicasToDirsRequest {
  const byDirectory = new Map<string, Map<string, number[]>>();
  for (const { directoryId, topicId, partitionIndex } of batch) {
    const topics = byDirectory.get(directoryId) ?? new Map<string, number[]>();
    byDirectory.set(directoryId, topics);
    const partitions = topics.get(topicId) ?? [];
    topics.set(topicId, partitions);
    partitions.push(partitionIndex);
  }
  return {
    brokerId: sender.brokerId,
    brokerEpoch: sender.brokerEpoch,
    directories: [...byDirectory].map(([id, topics]) => ({
      id,
      topics: [...topics].map(([topicId, partitions]) => ({
        topicId,
        partitions: partitions.map((partitionIndex) => ({ partitionIndex })),
      })),
    })),
  };
}

/**
 * The error code of each assignment of `batch`, in order: the response's top-level error when it
 * has one, the partition's own otherwise, UNKNOWN_SERVER_ERROR for a partition it left out.
 */
export function assignmentErrorCodes(
  response: AssignReplicasToDirsResponse,
  batch: readonly DirectoryAssignment[],
): number[] {
  if (response.errorCode !== ErrorCode.NONE) return batch.map(() => response.errorCode);
  const answers = new Map<string, number>();
  for (const directory of response.directories) {
    for (const topic of directory.topics) {
      for (const partition of topic.partitions) {
        const key = `${directory.id}:${topic.topicId}:${partition.partitionIndex}`;
        answers.set(key, partition.errorCode);
      }
    }
  }
  return batch.map(
    ({ directoryId, topicId, partitionIndex }) =>
      answers.get(`${directoryId}:${topicId}:${partitionIndex}`) ?? ErrorCode.UNKNOWN_SERVER_ERROR,
  );
}
