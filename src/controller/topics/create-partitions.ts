/**
 * CreatePartitions (v0-v3): a topic's partition count may only grow. The new partitions are
 * placed like a new topic's, with the replication factor of the topic's partition 0, or taken
 * from the request's assignments (one list per new partition, the same length as the existing
 * ones). Each topic succeeds or fails alone; validateOnly checks and writes nothing.
 */
import { ErrorCode } from "../../common/index.js";
import { shownTopicName } from "./topic-names.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { Random } from "../../ports/index.js";
import type {
  CreatePartitionsRequest,
  CreatePartitionsRequestCreatePartitionsTopic,
  CreatePartitionsResponse,
  MetadataRecord,
} from "../../protocol/index.js";
import { imageAfter } from "../cluster/index.js";
import type { ControllerResult } from "../cluster/index.js";
import {
  invalidAssignment,
  invalidReplicaListReason,
  usableReplicas,
} from "./manual-assignment.js";
import type { TopicRefusal } from "./manual-assignment.js";
import { planPlacedPartitions } from "./partition-plan.js";
import type { PartitionPlan, PlannedPartition } from "./partition-plan.js";
import { newPartitionRecord } from "./topic-records.js";
import { PARTITIONS_PER_REQUEST_MAX } from "./create-topics.js";

export function createPartitions(
  context: { readonly image: MetadataImage; readonly random: Random },
  request: CreatePartitionsRequest,
): ControllerResult<CreatePartitionsResponse> {
  const counts = new Map<string, number>();
  for (const topic of request.topics) counts.set(topic.name, (counts.get(topic.name) ?? 0) + 1);
  let image = context.image;
  const records: MetadataRecord[] = [];
  const results = request.topics.map((topic) => {
    const outcome =
      (counts.get(topic.name) ?? 0) > 1
        ? {
            errorCode: ErrorCode.INVALID_REQUEST,
            errorMessage: `topic ${shownTopicName(topic.name)} is named more than once`,
          }
        : growTopic(image, topic, context.random);
    if ("errorCode" in outcome) return { name: topic.name, ...outcome };
    image = imageAfter(image, outcome);
    records.push(...outcome);
    return { name: topic.name, errorCode: ErrorCode.NONE, errorMessage: null };
  });
  return { records: request.validateOnly ? [] : records, response: { throttleTimeMs: 0, results } };
}

/** The records that grow one topic, or why it cannot grow. */
function growTopic(
  image: MetadataImage,
  request: CreatePartitionsRequestCreatePartitionsTopic,
  random: Random,
): MetadataRecord[] | TopicRefusal {
  const topic = image.topics.byName.get(request.name);
  if (topic === undefined) {
    return {
      errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      errorMessage: `topic ${shownTopicName(request.name)} does not exist`,
    };
  }
  const existing = topic.partitions.size;
  if (request.count <= existing) {
    const errorMessage =
      request.count === existing
        ? `topic ${topic.name} already has ${existing} partitions`
        : `topic ${topic.name} has ${existing} partitions; ${request.count} is no increase`;
    return { errorCode: ErrorCode.INVALID_PARTITIONS, errorMessage };
  }
  const added = request.count - existing;
  if (added > PARTITIONS_PER_REQUEST_MAX) {
    const errorMessage = `one request may create at most ${PARTITIONS_PER_REQUEST_MAX} partitions`;
    return { errorCode: ErrorCode.POLICY_VIOLATION, errorMessage };
  }
  const replicationFactor = topic.partitions.get(0)?.replicas.length ?? 1;
  const plan =
    request.assignments === null
      ? planPlacedPartitions(image, added, replicationFactor, random)
      : planAssigned(image, request.assignments, added, replicationFactor);
  if (plan.kind === "refused")
    return { errorCode: plan.errorCode, errorMessage: plan.errorMessage };
  return plan.partitions.map((partition, index) =>
    newPartitionRecord(image, { topicId: topic.id, partitionId: existing + index, ...partition }),
  );
}

function planAssigned(
  image: MetadataImage,
  assignments: readonly { readonly brokerIds: readonly number[] }[],
  added: number,
  replicationFactor: number,
): PartitionPlan {
  if (assignments.length !== added) {
    const message = `${added} partitions are added but ${assignments.length} assignments are given`;
    return { kind: "refused", ...invalidAssignment(message) };
  }
  const partitions: PlannedPartition[] = [];
  for (const assignment of assignments) {
    const invalid = invalidReplicaListReason(image, assignment.brokerIds, replicationFactor);
    if (invalid !== undefined) return { kind: "refused", ...invalid };
    const isr = usableReplicas(image, assignment.brokerIds);
    if (isr.length === 0) {
      return {
        kind: "refused",
        ...invalidAssignment("every replica of a new partition is fenced or shutting down"),
      };
    }
    partitions.push({ replicas: assignment.brokerIds as BrokerId[], isr });
  }
  return { kind: "planned", partitions, replicationFactor };
}
