/**
 * Checks of replica assignments an operator gives by hand (CreateTopics assignments,
 * CreatePartitions assignments), with Kafka's rules: no empty list, no broker twice, only
 * registered brokers, every list the same length, and at least one usable replica to start the
 * ISR with.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";

export interface TopicRefusal {
  readonly errorCode: number;
  readonly errorMessage: string;
}

/** Refuses with INVALID_REPLICA_ASSIGNMENT. */
export function invalidAssignment(errorMessage: string): TopicRefusal {
  return { errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT, errorMessage };
}

/** Why one partition's replica list is refused, or undefined. */
export function invalidReplicaListReason(
  image: MetadataImage,
  replicas: readonly number[],
  replicationFactor: number,
): TopicRefusal | undefined {
  if (replicas.length === 0) return invalidAssignment("a replica list is empty");
  const seen = new Set<number>();
  for (const replica of replicas) {
    if (seen.has(replica)) return invalidAssignment(`broker ${replica} appears twice in one list`);
    seen.add(replica);
    if (!image.cluster.brokers.has(replica as BrokerId)) {
      return invalidAssignment(`broker ${replica} is not registered`);
    }
  }
  if (replicas.length !== replicationFactor) {
    return invalidAssignment(
      `a list has ${replicas.length} replicas where the others have ${replicationFactor}`,
    );
  }
  return undefined;
}

/** The replicas that may start in sync: registered, unfenced and not shutting down. */
export function usableReplicas(image: MetadataImage, replicas: readonly number[]): BrokerId[] {
  return replicas.filter((replica) => {
    const broker = image.cluster.brokers.get(replica as BrokerId);
    return broker !== undefined && !broker.isFenced && !broker.isInControlledShutdown;
  }) as BrokerId[];
}
