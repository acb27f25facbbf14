/**
 * WriteTxnMarkers (27, v0-1): the transaction coordinator asks a partition leader to end a
 * transaction on its partitions. Each partition gets a COMMIT or ABORT control batch, appended
 * as the coordinator's (its producer epoch and coordinator epoch checked against the
 * partition's producer state: INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED) with
 * acks=-1, and is answered once the high watermark covers it. A marker on a
 * `__consumer_offsets` partition then decides the transaction's pending offsets there.
 */
import { AclOperation } from "../../../metadata/index.js";
import { ErrorCode } from "../../../common/index.js";
import {
  awaitHighWatermark,
  OFFSETS_TOPIC,
  type GroupCoordinator,
  type MarkerRequest,
} from "../../../coordinator/index.js";
import type { Timers } from "../../../ports/index.js";
import { ApiKey, encodeTransactionMarkerBatch } from "../../../protocol/index.js";
import type { ReplicaManager } from "../../../replication/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";

export const WRITE_TXN_MARKERS_VERSIONS = { minVersion: 0, maxVersion: 1 } as const;

/** How long a marker waits for its replicas (Kafka's `request.timeout.ms` default). */
export const MARKER_WRITE_TIMEOUT_MS = 30_000;

export interface MarkerWriterDependencies {
  readonly replicaManager: ReplicaManager;
  readonly groups: GroupCoordinator;
  readonly timers: Timers;
  readonly clock: { nowMs(): number };
}

/** `topic` NUL `partition`: the key of a partition's result. */
export function markerKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/** Writes one transaction's markers on this broker; resolves to each partition's error code. */
export async function writeMarkersLocally(
  dependencies: MarkerWriterDependencies,
  marker: MarkerRequest,
): Promise<Map<string, number>> {
  const { replicaManager } = dependencies;
  const records = (): Uint8Array =>
    encodeTransactionMarkerBatch({
      baseOffset: 0,
      partitionLeaderEpoch: -1,
      producerId: marker.producerId,
      producerEpoch: marker.producerEpoch,
      coordinatorEpoch: marker.coordinatorEpoch,
      type: marker.committed ? "commit" : "abort",
      timestamp: dependencies.clock.nowMs(),
    });
  const results = new Map<string, number>();
  const entries = [];
  for (const topicPartition of marker.partitions) {
    const lookup = replicaManager.getPartitionOrError(topicPartition);
    const key = markerKey(topicPartition.topic, topicPartition.partition);
    if (lookup.kind === "error") results.set(key, lookup.errorCode);
    else entries.push({ topicPartition, records: records() });
  }
  const appended = await replicaManager.appendRecords(entries, {
    requiredAcks: -1,
    origin: "coordinator",
  });
  for (const { topicPartition, outcome } of appended.results) {
    if (outcome.kind === "error") {
      results.set(markerKey(topicPartition.topic, topicPartition.partition), outcome.errorCode);
    }
  }
  await Promise.all(
    appended.waits.map(async (wait) => {
      const { topic, partition } = wait.topicPartition;
      const errorCode = await awaitHighWatermark(wait.partition, wait.requiredOffset, {
        timers: dependencies.timers,
        timeoutMs: MARKER_WRITE_TIMEOUT_MS,
      });
      results.set(markerKey(topic, partition), errorCode);
      if (errorCode === ErrorCode.NONE && topic === OFFSETS_TOPIC) {
        dependencies.groups.completeTransaction(partition, marker.producerId, marker.committed);
      }
    }),
  );
  return results;
}

export function writeTxnMarkersHandler(
  dependencies: MarkerWriterDependencies,
): ApiHandler<typeof ApiKey.WriteTxnMarkers> {
  return defineHandler(ApiKey.WriteTxnMarkers, {
    ...WRITE_TXN_MARKERS_VERSIONS,
    authorization: { kind: "cluster", operation: AclOperation.CLUSTER_ACTION },
    handle: async (request) => {
      const markers = await Promise.all(
        request.markers.map(async (marker) => {
          const partitions = marker.topics.flatMap((topic) =>
            topic.partitionIndexes.map((partition) => ({ topic: topic.name, partition })),
          );
          const results = await writeMarkersLocally(dependencies, {
            producerId: marker.producerId,
            producerEpoch: marker.producerEpoch,
            coordinatorEpoch: marker.coordinatorEpoch,
            committed: marker.transactionResult,
            partitions,
          });
          return {
            producerId: marker.producerId,
            topics: marker.topics.map((topic) => ({
              name: topic.name,
              partitions: topic.partitionIndexes.map((partitionIndex) => ({
                partitionIndex,
                errorCode:
                  results.get(markerKey(topic.name, partitionIndex)) ??
                  ErrorCode.UNKNOWN_SERVER_ERROR,
              })),
            })),
          };
        }),
      );
      return respond({ markers });
    },
    errorResponse: (request, _context, errorCode) =>
      respond({
        markers: request.markers.map((marker) => ({
          producerId: marker.producerId,
          topics: marker.topics.map((topic) => ({
            name: topic.name,
            partitions: topic.partitionIndexes.map((partitionIndex) => ({
              partitionIndex,
              errorCode,
            })),
          })),
        })),
      }),
  });
}
