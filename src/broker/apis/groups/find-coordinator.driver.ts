/**
 * FindCoordinator (10, v0-4): the coordinator of a group is the leader of its
 * `__consumer_offsets` partition. The first request creates that topic through the controller
 * (compacted, `offsets.topic.num.partitions` partitions, the replication factor capped to the
 * live brokers) and answers COORDINATOR_NOT_AVAILABLE until a leader exists; v4 batches keys.
 * Only group keys (key type 0) are served: transactions do not exist yet.
 */
import { ErrorCode } from "../../../common/index.js";
import { OFFSETS_TOPIC, type GroupCoordinator } from "../../../coordinator/index.js";
import { ApiKey, createTopics } from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";
import { createdTopicsShown } from "../forwarded-effects.js";
import type { Forwarder } from "../forwarder.js";

export const FIND_COORDINATOR_VERSIONS = { minVersion: 0, maxVersion: 4 } as const;

export interface FindCoordinatorDependencies {
  readonly coordinator: GroupCoordinator;
  readonly metadataCache: MetadataCache;
  readonly forwarder: Forwarder;
  readonly requestTimeoutMs: number;
}

interface Found {
  readonly key: string;
  readonly errorCode: number;
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
}

export function findCoordinatorHandler(
  dependencies: FindCoordinatorDependencies,
): ApiHandler<typeof ApiKey.FindCoordinator> {
  let creating: Promise<void> | undefined;
  const ensureTopic = (): void => {
    creating ??= createOffsetsTopic(dependencies).finally(() => (creating = undefined));
  };
  return defineHandler(ApiKey.FindCoordinator, {
    ...FIND_COORDINATOR_VERSIONS,
    handle: (request, context) => {
      const version = context.header.apiVersion;
      const keys = version >= 4 ? request.coordinatorKeys : [request.key];
      const listenerName = context.connection.listenerName;
      const found = keys.map((key) =>
        request.keyType !== 0
          ? notFound(key, unservedKeyError(request.keyType))
          : locate(dependencies, { key, listenerName, ensureTopic }),
      );
      if (version >= 4) return respond({ throttleTimeMs: 0, coordinators: found });
      const first = found[0] ?? notFound("", ErrorCode.INVALID_REQUEST);
      const { errorCode, nodeId, host, port } = first;
      return respond({ throttleTimeMs: 0, errorCode, errorMessage: null, nodeId, host, port });
    },
    errorResponse: (request, context, errorCode) => {
      if (context.header.apiVersion < 4)
        return respond({ throttleTimeMs: 0, errorCode, nodeId: -1 });
      const coordinators = request.coordinatorKeys.map((key) => notFound(key, errorCode));
      return respond({ throttleTimeMs: 0, coordinators });
    },
  });
}

function notFound(key: string, errorCode: number): Found {
  return { key, errorCode, nodeId: -1, host: "", port: -1 };
}

/** The leader of the group's partition when it is this node and loaded, else the error. */
function locate(
  dependencies: FindCoordinatorDependencies,
  asked: { key: string; listenerName: string; ensureTopic: () => void },
): Found {
  const { coordinator, metadataCache } = dependencies;
  const image = metadataCache.image;
  const topic = image.topics.byName.get(OFFSETS_TOPIC);
  if (topic === undefined) {
    asked.ensureTopic();
    return notFound(asked.key, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  }
  const partition = topic.partitions.get(coordinator.partitionFor(asked.key));
  const leader = partition === undefined ? undefined : partition.leader;
  const endpoint = metadataCache
    .aliveBrokers(asked.listenerName, image)
    .find((broker) => broker.brokerId === leader);
  if (endpoint === undefined) return notFound(asked.key, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  return {
    key: asked.key,
    errorCode: ErrorCode.NONE,
    nodeId: endpoint.brokerId,
    host: endpoint.host,
    port: endpoint.port,
  };
}

/** Sends CreateTopics for `__consumer_offsets` to the controller; failures are retried later. */
async function createOffsetsTopic(dependencies: FindCoordinatorDependencies): Promise<void> {
  const { config } = dependencies.coordinator.state;
  const alive = [...dependencies.metadataCache.image.cluster.brokers.values()].filter(
    (broker) => !broker.isFenced,
  ).length;
  const replicationFactor = Math.max(1, Math.min(config.offsetsTopicReplicationFactor, alive));
  const topics = [
    {
      name: OFFSETS_TOPIC,
      numPartitions: config.offsetsTopicNumPartitions,
      replicationFactor,
      assignments: [],
      configs: [
        { name: "cleanup.policy", value: "compact" },
        { name: "compression.type", value: "producer" },
        { name: "segment.bytes", value: "104857600" },
      ],
    },
  ];
  const body = { topics, timeoutMs: dependencies.requestTimeoutMs, validateOnly: false };
  await dependencies.forwarder.forward(createTopics, 7, body, (response, image) =>
    createdTopicsShown(body, response, image),
  );
}

/** Transaction coordinators (key type 1) do not exist yet; other key types are invalid. */
function unservedKeyError(keyType: number): number {
  return keyType === 1 ? ErrorCode.COORDINATOR_NOT_AVAILABLE : ErrorCode.INVALID_REQUEST;
}
