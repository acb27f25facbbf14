/**
 * AlterPartitionReassignments (API 45, v0), as Kafka's controller runs it. A target replica list
 * starts (or replaces) a reassignment: the new replicas are added and listed as adding, the old
 * ones as removing; once every replica that stays is in the ISR (an AlterPartition brings them
 * in), the PartitionChangeBuilder drops the removed ones and elects a leader among the target if
 * the leader left. A target that already holds the ISR completes at once. A null target cancels
 * the ongoing reassignment. All partitions' records go in one atomic batch.
 */
import { ErrorCode, shownText } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage, PartitionRegistration, TopicImage } from "../../metadata/index.js";
import type {
  AlterPartitionReassignmentsRequest,
  AlterPartitionReassignmentsRequestReassignablePartition,
  AlterPartitionReassignmentsResponse,
  AlterPartitionReassignmentsResponseReassignablePartitionResponse,
} from "../../protocol/index.js";
import type {
  PartitionChangeRequest,
  PartitionChanges,
  PartitionControlResult,
  ReplicationDefaults,
} from "../election/index.js";
import {
  DEFAULT_REPLICATION_DEFAULTS,
  addPartitionChange,
  changePartition,
  isReassignmentInProgress,
  isUncleanLeaderElectionEnabled,
  noPartitionChanges,
} from "../election/index.js";
import { reassignmentPlan, reassignmentRevert } from "./reassignment-plan.js";

/** A refusal, or the change to make. */
type Decision =
  | { readonly kind: "refused"; readonly errorCode: number; readonly message: string }
  | { readonly kind: "change"; readonly request: PartitionChangeRequest };

function refused(errorCode: number, message: string): Decision {
  return { kind: "refused", errorCode, message };
}

/** Kafka's validateManualPartitionAssignment for a reassignment target. */
function targetProblem(image: MetadataImage, target: readonly number[]): string | undefined {
  if (target.length === 0) return "the target replica list is empty";
  const sorted = [...target].sort((a, b) => a - b);
  for (const [index, replica] of sorted.entries()) {
    if (!image.cluster.brokers.has(replica as BrokerId)) {
      return `the target names broker ${replica}, which is not registered`;
    }
    if (index > 0 && sorted[index - 1] === replica) {
      return `the target names broker ${replica} more than once`;
    }
  }
  return undefined;
}

function cancel(
  image: MetadataImage,
  defaults: ReplicationDefaults,
  topicName: string,
  partition: PartitionRegistration,
): Decision {
  if (!isReassignmentInProgress(partition)) {
    const message = "no reassignment of this partition is in progress";
    return refused(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, message);
  }
  const revert = reassignmentRevert(partition);
  if (revert === undefined) {
    const message = "every replica is being added; none would remain";
    return refused(ErrorCode.INVALID_REPLICA_ASSIGNMENT, message);
  }
  if (revert.isUnclean && !isUncleanLeaderElectionEnabled(image, topicName, defaults)) {
    const message = "cancelling would need an unclean leader election, which the topic forbids";
    return refused(ErrorCode.INVALID_REPLICA_ASSIGNMENT, message);
  }
  return {
    kind: "change",
    request: {
      trigger: "cancelled reassignment",
      targetIsr: revert.isr,
      targetReplicas: revert.replicas,
      targetRemoving: [],
      targetAdding: [],
    },
  };
}

function decide(
  image: MetadataImage,
  defaults: ReplicationDefaults,
  topic: TopicImage,
  target: AlterPartitionReassignmentsRequestReassignablePartition,
): Decision {
  const partition = topic.partitions.get(target.partitionIndex);
  if (partition === undefined) {
    return refused(
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      `there is no partition ${shownText(topic.name)}-${target.partitionIndex}`,
    );
  }
  if (target.replicas === null) return cancel(image, defaults, topic.name, partition);
  const problem = targetProblem(image, target.replicas);
  if (problem !== undefined) return refused(ErrorCode.INVALID_REPLICA_ASSIGNMENT, problem);
  const plan = reassignmentPlan(partition.replicas, target.replicas as BrokerId[]);
  // A new target replaces an ongoing reassignment entirely, so its adding and removing lists
  // are written even when empty (Kafka would keep the old ones in that case).
  return {
    kind: "change",
    request: {
      trigger: "reassignment",
      targetReplicas: plan.replicas,
      targetAdding: plan.adding,
      targetRemoving: plan.removing,
    },
  };
}

function alterOne(
  image: MetadataImage,
  defaults: ReplicationDefaults,
  changes: PartitionChanges,
  topicName: string,
  target: AlterPartitionReassignmentsRequestReassignablePartition,
): AlterPartitionReassignmentsResponseReassignablePartitionResponse {
  const partitionIndex = target.partitionIndex;
  const topic = image.topics.byName.get(topicName);
  if (topic === undefined) {
    const message = `there is no topic named ${shownText(topicName)}`;
    return {
      partitionIndex,
      errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      errorMessage: message,
    };
  }
  const decision = decide(image, defaults, topic, target);
  if (decision.kind === "refused") {
    return { partitionIndex, errorCode: decision.errorCode, errorMessage: decision.message };
  }
  const { request } = decision;
  const result = changePartition({ image, defaults, topic, partitionId: partitionIndex, request });
  if (result !== undefined) addPartitionChange(image, changes, result);
  return { partitionIndex, errorCode: ErrorCode.NONE, errorMessage: null };
}

export function alterPartitionReassignments(
  image: MetadataImage,
  request: AlterPartitionReassignmentsRequest,
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionControlResult<AlterPartitionReassignmentsResponse> {
  const changes = noPartitionChanges();
  const responses = request.topics.map((topic) => ({
    name: topic.name,
    partitions: topic.partitions.map((target) =>
      alterOne(image, defaults, changes, topic.name, target),
    ),
  }));
  const response = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, responses };
  return { records: changes.records, response, elections: changes.elections };
}
