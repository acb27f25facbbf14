/**
 * The APIs a broker serves to clients on a client listener, registered in one place so that
 * the router advertises exactly these ranges (see src/broker/README.md for why each range).
 */
import type { StaticBrokerConfig } from "../../controller/index.js";
import type { Logger } from "../../ports/index.js";
import type { ReplicaManager } from "../../replication/index.js";
import type { LogManager } from "../../storage/index.js";
import type { PartitionWakeups } from "../delayed/index.js";
import type { FetchSessionCache } from "../fetch-session/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import type { DelayedOperationPurgatory } from "../purgatory/purgatory.driver.js";
import type { ApiKey } from "../../protocol/index.js";
import type { ApiHandler } from "../router/handler.js";
import { forwardedAdminHandlers } from "./admin-forwarding.driver.js";
import { alterReplicaLogDirsHandler } from "./alter-replica-log-dirs.driver.js";
import { AutoTopicCreator } from "./auto-topic-creation.driver.js";
import { describeAclsHandler } from "./describe-acls.js";
import { deleteRecordsHandler } from "./delete-records.driver.js";
import { describeClientQuotasHandler } from "./describe-client-quotas.js";
import { describeClusterHandler } from "./describe-cluster.js";
import { describeConfigsHandler } from "./describe-configs.js";
import { describeLogDirsHandler } from "./describe-log-dirs.js";
import { describeProducersHandler } from "./describe-producers.js";
import { describeUserScramCredentialsHandler } from "./describe-user-scram-credentials.js";
import { describeTopicPartitionsHandler } from "./describe-topic-partitions.js";
import type { BrokerTopicStats } from "./broker-topic-stats.js";
import { fetchHandler } from "./fetch.driver.js";
import type { Forwarder } from "./forwarder.js";
import type { ClientQuotas } from "../quotas/index.js";
import { listOffsetsHandler } from "./list-offsets.driver.js";
import { metadataHandler } from "./metadata.js";
import { offsetForLeaderEpochHandler } from "./offset-for-leader-epoch.js";
import { produceHandler } from "./produce.driver.js";
import type { ProduceVerifier } from "./produce-verification.js";

export interface ClientApiConfig {
  readonly brokerId: number;
  /** `auto.create.topics.enable`. */
  readonly autoCreateTopicsEnable: boolean;
  /** `num.partitions` and `default.replication.factor`, for auto-created topics. */
  readonly numPartitions: number;
  readonly defaultReplicationFactor: number;
  /** `fetch.max.bytes`, the broker's bound on a fetch response. */
  readonly fetchMaxBytes: number;
  /** `request.timeout.ms`, the CreateTopics timeout of auto-creation. */
  readonly requestTimeoutMs: number;
  /** The static config file, for DescribeConfigs. */
  readonly staticConfig: StaticBrokerConfig;
}

/** Everything the client APIs work with; the node assembly builds these. */
export interface ClientApiDependencies {
  readonly config: ClientApiConfig;
  readonly metadataCache: MetadataCache;
  readonly replicaManager: ReplicaManager;
  readonly logManager: LogManager;
  readonly purgatories: {
    readonly produce: DelayedOperationPurgatory;
    readonly fetch: DelayedOperationPurgatory;
  };
  readonly wakeups: PartitionWakeups;
  readonly fetchSessions: FetchSessionCache;
  readonly forwarder: Forwarder;
  readonly logger: Logger;
  /** Produce's check of transactional batches with their coordinator (KIP-890), when on. */
  readonly verifier?: ProduceVerifier | undefined;
  /** Kafka's BrokerTopicMetrics, counted by Produce and Fetch. */
  readonly topicStats?: BrokerTopicStats;
  /** The client quotas that throttle Produce and consumer Fetch. */
  readonly quotas?: ClientQuotas;
  /**
   * True when the node has the Crypto port: its controllers, built the same way, derive SCRAM
   * keys, so AlterUserScramCredentials is forwarded and advertised.
   */
  readonly servesScramAlter?: boolean;
}

/** What registration made that the node must shut down. */
export interface ClientApis {
  readonly autoTopicCreator: AutoTopicCreator;
}

/**
 * Registers Produce, Fetch, ListOffsets, Metadata, OffsetForLeaderEpoch, DeleteRecords,
 * DescribeConfigs, AlterReplicaLogDirs, DescribeLogDirs, DescribeCluster,
 * DescribeTopicPartitions, DescribeClientQuotas, DescribeUserScramCredentials and the forwarded
 * admin APIs. ApiVersions
 * is registered by the caller (registerApiVersions), last, so that it sees the whole table.
 */
export function registerClientApis(
  router: { register<K extends ApiKey>(handler: ApiHandler<K>): void },
  dependencies: ClientApiDependencies,
): ClientApis {
  const { config, metadataCache, replicaManager, purgatories, wakeups } = dependencies;
  const autoTopicCreator = new AutoTopicCreator(dependencies.forwarder, {
    numPartitions: config.numPartitions,
    defaultReplicationFactor: config.defaultReplicationFactor,
    timeoutMs: config.requestTimeoutMs,
    logger: dependencies.logger,
  });
  // Lives as long as the replica manager: both belong to the one node that registers them.
  replicaManager.onPartitionRoleChanged((topicPartition) => wakeups.wake(topicPartition));
  const { topicStats, quotas } = dependencies;
  const measured = {
    ...(topicStats === undefined ? {} : { topicStats }),
    ...(quotas === undefined ? {} : { quotas }),
  };
  const produce = {
    ...{ replicaManager, purgatory: purgatories.produce, wakeups, metadataCache },
    ...measured,
  };
  const { verifier } = dependencies;
  router.register(produceHandler(verifier === undefined ? produce : { ...produce, verifier }));
  router.register(
    fetchHandler({
      replicaManager,
      purgatory: purgatories.fetch,
      wakeups,
      metadataCache,
      sessions: dependencies.fetchSessions,
      fetchMaxBytes: config.fetchMaxBytes,
      ...measured,
    }),
  );
  router.register(listOffsetsHandler(replicaManager));
  router.register(
    metadataHandler({
      metadataCache,
      autoCreateTopicsEnable: config.autoCreateTopicsEnable,
      autoCreation: autoTopicCreator,
    }),
  );
  router.register(deleteRecordsHandler(replicaManager));
  router.register(offsetForLeaderEpochHandler(replicaManager));
  const { brokerId, staticConfig } = config;
  router.register(describeConfigsHandler(metadataCache, { brokerId, staticConfig }));
  router.register(alterReplicaLogDirsHandler(replicaManager));
  router.register(describeLogDirsHandler(dependencies.logManager));
  router.register(describeClusterHandler(metadataCache));
  router.register(describeProducersHandler(replicaManager, metadataCache));
  router.register(describeTopicPartitionsHandler(metadataCache));
  router.register(describeClientQuotasHandler(metadataCache));
  router.register(describeAclsHandler(metadataCache));
  router.register(describeUserScramCredentialsHandler(metadataCache));
  const forwarded = forwardedAdminHandlers(dependencies.forwarder, {
    servesScramAlter: dependencies.servesScramAlter === true,
    image: () => metadataCache.image,
  });
  for (const handler of forwarded) router.register(handler);
  return { autoTopicCreator };
}
