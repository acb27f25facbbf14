/**
 * The partition APIs: ElectLeaders (43, v0-2), AlterPartition (56, v0-3),
 * AlterPartitionReassignments (45, v0) and ListPartitionReassignments (46, v0, a read),
 * AllocateProducerIds (67, v0) and AssignReplicasToDirs (73, v0); the ranges Kafka 3.7-3.9
 * controllers advertise.
 */
import { ApiKey } from "../../protocol/index.js";
import { electLeaders } from "../election/index.js";
import { alterPartition, assignReplicasToDirs } from "../isr/index.js";
import { allocateProducerIds } from "../producer-ids/index.js";
import { alterPartitionReassignments, listPartitionReassignments } from "../reassignment/index.js";
import { readApi, writeApi } from "./controller-api.js";

/** ElectLeaders: preferred or unclean elections; v0 has no top-level error, so every partition
 * the request names carries the error. */
export const electLeadersApi = writeApi(ApiKey.ElectLeaders, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 2,
  compute: (context, request) => electLeaders(context.image, request, context.settings.replication),
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    errorCode,
    replicaElectionResults: (request.topicPartitions ?? []).map((topic) => ({
      topic: topic.topic,
      partitionResult: topic.partitions.map((partitionId) => ({
        partitionId,
        errorCode,
        errorMessage,
      })),
    })),
  }),
});

/** AlterPartition: a leader's ISR change; names topics by id from v2. */
export const alterPartitionApi = writeApi(ApiKey.AlterPartition, {
  minVersion: 0,
  maxVersion: 3,
  compute: (context, request, version) =>
    alterPartition(context.image, request, version, context.settings.replication),
  errorResponse: (_request, _version, errorCode) => ({ throttleTimeMs: 0, errorCode, topics: [] }),
});

/** AlterPartitionReassignments: start, replace or cancel reassignments. */
export const alterPartitionReassignmentsApi = writeApi(ApiKey.AlterPartitionReassignments, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 0,
  compute: (context, request) =>
    alterPartitionReassignments(context.image, request, context.settings.replication),
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    errorCode,
    errorMessage,
    responses: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((partition) => ({
        partitionIndex: partition.partitionIndex,
        errorCode,
        errorMessage,
      })),
    })),
  }),
});

/** ListPartitionReassignments: the reassignments in progress, from the committed image. */
export const listPartitionReassignmentsApi = readApi(ApiKey.ListPartitionReassignments, {
  minVersion: 0,
  maxVersion: 0,
  compute: (context, request) => listPartitionReassignments(context.image, request).response,
  errorResponse: (_request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    errorCode,
    errorMessage,
    topics: [],
  }),
});

/** AllocateProducerIds: a block of producer ids for a broker. */
export const allocateProducerIdsApi = writeApi(ApiKey.AllocateProducerIds, {
  minVersion: 0,
  maxVersion: 0,
  compute: (context, request) => allocateProducerIds(context.image, request),
  errorResponse: (_request, _version, errorCode) => ({
    throttleTimeMs: 0,
    errorCode,
    producerIdStart: -1,
    producerIdLen: 0,
  }),
});

/** AssignReplicasToDirs: a broker reports the log dir of its replicas (KIP-858). */
export const assignReplicasToDirsApi = writeApi(ApiKey.AssignReplicasToDirs, {
  minVersion: 0,
  maxVersion: 0,
  compute: (context, request) =>
    assignReplicasToDirs(context.image, request, context.settings.replication),
  errorResponse: (_request, _version, errorCode) => ({
    throttleTimeMs: 0,
    errorCode,
    directories: [],
  }),
});
