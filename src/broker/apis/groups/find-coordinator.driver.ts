/**
 * FindCoordinator (10, v0-4): the coordinator of a group (key type 0) is the leader of its
 * `__consumer_offsets` partition, that of a transactional id (key type 1) the leader of its
 * `__transaction_state` partition. The first request for a kind creates its topic through the
 * controller (compacted, `offsets.topic.num.partitions` or
 * `transaction.state.log.num.partitions` partitions, the replication factor capped to the live
 * brokers) and answers COORDINATOR_NOT_AVAILABLE until a leader exists; v4 batches keys. Other
 * key types (share groups) are INVALID_REQUEST.
 */
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import type { RequestAuthorization } from "../../security/index.js";
import { ErrorCode } from "../../../common/index.js";
import {
  OFFSETS_TOPIC,
  TRANSACTION_STATE_TOPIC,
  type GroupCoordinator,
  type TransactionCoordinator,
} from "../../../coordinator/index.js";
import { ApiKey, createTopics } from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";
import { createdTopicsShown } from "../forwarded-effects.js";
import type { Forwarder } from "../forwarder.js";

export const FIND_COORDINATOR_VERSIONS = { minVersion: 0, maxVersion: 4 } as const;

export interface FindCoordinatorDependencies {
  readonly coordinator: GroupCoordinator;
  /** The transaction coordinator; without one, key type 1 is COORDINATOR_NOT_AVAILABLE. */
  readonly transactions?: TransactionCoordinator;
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
  const creating = new Map<number, Promise<void>>();
  const ensureTopic = (keyType: number): void => {
    if (creating.has(keyType)) return;
    const topic = internalTopicOf(dependencies, keyType);
    if (topic === undefined) return;
    creating.set(
      keyType,
      createInternalTopic(dependencies, topic).finally(() => creating.delete(keyType)),
    );
  };
  return defineHandler(ApiKey.FindCoordinator, {
    ...FIND_COORDINATOR_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, context) => {
      const version = context.header.apiVersion;
      const keys = version >= 4 ? request.coordinatorKeys : [request.key];
      const listenerName = context.connection.listenerName;
      const { keyType } = request;
      const found = keys.map((key) => {
        const refusal =
          unauthorizedKeyError(context.authorization, keyType, key) ??
          unservedKeyError(dependencies, keyType);
        if (refusal !== undefined) return notFound(key, refusal);
        return locate(dependencies, { key, keyType, listenerName, ensureTopic });
      });
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

/**
 * Kafka's KafkaApis: a group's coordinator needs DESCRIBE on the group, a transaction's
 * DESCRIBE on its transactional id.
 */
function unauthorizedKeyError(
  authorization: RequestAuthorization,
  keyType: number,
  key: string,
): number | undefined {
  if (keyType === 0) {
    return authorization.authorize(AclOperation.DESCRIBE, AclResourceType.GROUP, key)
      ? undefined
      : ErrorCode.GROUP_AUTHORIZATION_FAILED;
  }
  if (keyType === 1) {
    return authorization.authorize(AclOperation.DESCRIBE, AclResourceType.TRANSACTIONAL_ID, key)
      ? undefined
      : ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
  }
  return undefined;
}

function notFound(key: string, errorCode: number): Found {
  return { key, errorCode, nodeId: -1, host: "", port: -1 };
}

/** The leader of the key's partition, else the error. */
function locate(
  dependencies: FindCoordinatorDependencies,
  asked: {
    key: string;
    keyType: number;
    listenerName: string;
    ensureTopic: (type: number) => void;
  },
): Found {
  const { coordinator, metadataCache, transactions } = dependencies;
  const image = metadataCache.image;
  const isTransaction = asked.keyType === 1 && transactions !== undefined;
  const topic = image.topics.byName.get(isTransaction ? TRANSACTION_STATE_TOPIC : OFFSETS_TOPIC);
  if (topic === undefined) {
    asked.ensureTopic(asked.keyType);
    return notFound(asked.key, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  }
  const index = isTransaction
    ? transactions.partitionFor(asked.key)
    : coordinator.partitionFor(asked.key);
  const partition = topic.partitions.get(index);
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

interface InternalTopic {
  readonly name: string;
  readonly numPartitions: number;
  readonly replicationFactor: number;
  readonly configs: readonly { readonly name: string; readonly value: string }[];
}

/** The internal topic behind a key type, as Kafka creates it. */
function internalTopicOf(
  dependencies: FindCoordinatorDependencies,
  keyType: number,
): InternalTopic | undefined {
  const segmentBytes = { name: "segment.bytes", value: "104857600" };
  const compact = { name: "cleanup.policy", value: "compact" };
  if (keyType === 0) {
    const { config } = dependencies.coordinator.state;
    return {
      name: OFFSETS_TOPIC,
      numPartitions: config.offsetsTopicNumPartitions,
      replicationFactor: config.offsetsTopicReplicationFactor,
      configs: [compact, { name: "compression.type", value: "producer" }, segmentBytes],
    };
  }
  const config = dependencies.transactions?.config;
  if (keyType !== 1 || config === undefined) return undefined;
  return {
    name: TRANSACTION_STATE_TOPIC,
    numPartitions: config.stateLogNumPartitions,
    replicationFactor: config.stateLogReplicationFactor,
    configs: [
      compact,
      { name: "compression.type", value: "uncompressed" },
      { name: "unclean.leader.election.enable", value: "false" },
      segmentBytes,
    ],
  };
}

/** Sends CreateTopics for an internal topic to the controller; failures are retried later. */
async function createInternalTopic(
  dependencies: FindCoordinatorDependencies,
  internal: InternalTopic,
): Promise<void> {
  const alive = [...dependencies.metadataCache.image.cluster.brokers.values()].filter(
    (broker) => !broker.isFenced,
  ).length;
  const replicationFactor = Math.max(1, Math.min(internal.replicationFactor, alive));
  const topics = [
    {
      name: internal.name,
      numPartitions: internal.numPartitions,
      replicationFactor,
      assignments: [],
      configs: [...internal.configs],
    },
  ];
  const body = { topics, timeoutMs: dependencies.requestTimeoutMs, validateOnly: false };
  await dependencies.forwarder.forward(createTopics, 7, body, (response, image) =>
    createdTopicsShown(body, response, image),
  );
}

/** The error of a key type this node does not serve, or undefined. */
function unservedKeyError(
  dependencies: FindCoordinatorDependencies,
  keyType: number,
): number | undefined {
  if (keyType === 0) return undefined;
  if (keyType !== 1) return ErrorCode.INVALID_REQUEST;
  return dependencies.transactions === undefined ? ErrorCode.COORDINATOR_NOT_AVAILABLE : undefined;
}
