/**
 * The client listeners of a broker (every listener that is not a controller listener), with the
 * request path's router: the client APIs over the replica manager, the metadata cache, the
 * produce and fetch purgatories, the fetch sessions and the admin forwarder, the group and
 * transaction coordinators, then ApiVersions last so that it advertises the whole table.
 */
import {
  BrokerMarkerSender,
  ClientQuotas,
  DelayedOperationPurgatory,
  FetchSessionCache,
  initProducerIdHandler,
  PartitionWakeups,
  AddPartitionsToTxnManager,
  ProduceVerifier,
  RequestRouter,
  registerApiVersions,
  registerClientApis,
  registerSaslApis,
  registerGroupApis,
  registerTransactionApis,
  type MarkerWriterDependencies,
  type SocketServer,
} from "../broker/index.js";
import { ClientPool } from "../client/index.js";
import {
  GroupCoordinator,
  GroupCoordinatorMetrics,
  type GroupCoordinatorState,
  TransactionCoordinator,
} from "../coordinator/index.js";
import { KNOWN_FEATURES } from "../controller/index.js";
import { METADATA_VERSION_FEATURE, sortedEntries } from "../metadata/index.js";
import type { FinalizedFeatures } from "../protocol/index.js";
import type { BrokerSide } from "./node-broker.js";
import { transactionSettingsOf } from "./config/definitions-transaction.js";
import { listenerOptionsOf, nodeAuthorizerOf } from "./node-security.js";
import { staticConfigOf } from "./node-settings.js";
import type { NodeParts } from "./node-shutdown.js";

/** Kafka's default `request.timeout.ms`, the deadline of topic auto-creation. */
const AUTO_CREATE_TIMEOUT_MS = 30_000;

/** The serving client listeners; `close` stops them and the operations that wait. */
export interface ClientListener {
  /** The groups this broker coordinates, for the dashboard. */
  readonly groups: GroupCoordinatorState;
  close(): Promise<void>;
}

/** Builds the client router and serves it on every client listener of the node. */
export async function openClientListener(
  parts: NodeParts,
  broker: BrokerSide,
  serverFor: (router: RequestRouter) => SocketServer,
): Promise<ClientListener> {
  const { ports, config, identity } = parts;
  const logManager = parts.logManager;
  if (logManager === undefined) throw new Error("a broker has a log manager");
  const purgatories = {
    produce: new DelayedOperationPurgatory(ports, { name: "Produce" }),
    fetch: new DelayedOperationPurgatory(ports, { name: "Fetch" }),
  };
  const quotas = clientQuotasOf(parts, broker);
  const router = clientRouterOf(parts, quotas, broker);
  const coordinators = openCoordinators(parts, broker);
  const verifier = produceVerifierOf(parts, broker, coordinators);
  const groupMetrics = new GroupCoordinatorMetrics(ports.metrics, {
    isPartitionLevel: config.partitionLevelMetricsEnable,
    highWatermarkOf: (topicPartition) => logManager.highWatermarkOf(topicPartition),
  });
  parts.collectors.push(() => groupMetrics.update(coordinators.groups.state));
  const apis = registerClientApis(router, {
    config: {
      brokerId: identity.nodeId,
      autoCreateTopicsEnable: config.autoCreateTopicsEnable,
      fetchMaxBytes: config.fetchMaxBytes,
      numPartitions: config.numPartitions,
      defaultReplicationFactor: config.defaultReplicationFactor,
      requestTimeoutMs: AUTO_CREATE_TIMEOUT_MS,
      staticConfig: staticConfigOf(config),
    },
    metadataCache: broker.metadataCache,
    replicaManager: broker.replicaManager,
    logManager,
    purgatories,
    wakeups: new PartitionWakeups(purgatories),
    fetchSessions: new FetchSessionCache({ random: ports.random }),
    forwarder: broker.forwarder,
    logger: ports.logger.child({ component: "request" }),
    verifier,
    quotas,
    topicStats: broker.topicStats,
    servesScramAlter: ports.crypto !== undefined,
  });
  registerCoordinatorApis(router, parts, broker, { ...coordinators, verifier });
  registerSaslApis(router);
  registerApiVersions(router, () => finalizedFeaturesOf(broker));
  const server = serverFor(router);
  parts.servers.push(server);
  for (const listener of config.listeners) {
    if (config.controllerListenerNames.includes(listener.name)) continue;
    const options = await listenerOptionsOf(ports.fs, config, listener.name);
    const address = await server.listen(listener.name, listener, options);
    parts.bound.push({ name: listener.name, address });
  }
  const close = async (): Promise<void> => {
    await server.close();
    purgatories.produce.close();
    purgatories.fetch.close();
    await coordinators.transactions.close();
    coordinators.pool.close();
    await coordinators.groups.close();
    await apis.autoTopicCreator.whenIdle();
  };
  return { groups: coordinators.groups.state, close };
}

/** The client listener's router, throttling requests for the request-time quota. */
function clientRouterOf(
  { ports, config }: NodeParts,
  quotas: ClientQuotas,
  broker: BrokerSide,
): RequestRouter {
  return new RequestRouter({
    logger: ports.logger,
    supportedFeatures: KNOWN_FEATURES.map(({ name, minLevel, maxLevel }) => ({
      name,
      minVersion: minLevel,
      maxVersion: maxLevel,
    })),
    requestQuota: quotas,
    authorizer: nodeAuthorizerOf(config, () => broker.metadataCache.image),
  });
}

/** The client quotas of the broker's image, over `quota.window.num` x `.size.seconds`. */
function clientQuotasOf({ ports, config }: NodeParts, broker: BrokerSide): ClientQuotas {
  return new ClientQuotas(ports.clock, () => broker.metadataCache.image.clientQuotas, {
    samples: config.values.number("quota.window.num"),
    windowMs: config.values.number("quota.window.size.seconds") * 1000,
  });
}

interface Coordinators {
  readonly groups: GroupCoordinator;
  readonly transactions: TransactionCoordinator;
  readonly markers: MarkerWriterDependencies;
  /** The connections of the transaction markers to other brokers. */
  readonly pool: ClientPool;
}

/** Registers the group APIs, InitProducerId and the transaction APIs on `router`. */
function registerCoordinatorApis(
  router: RequestRouter,
  parts: NodeParts,
  broker: BrokerSide,
  coordinators: Coordinators & { readonly verifier: ProduceVerifier | undefined },
): void {
  const { groups, transactions, verifier } = coordinators;
  const { metadataCache } = broker;
  const clock = parts.ports.clock;
  registerGroupApis(router, {
    coordinator: groups,
    transactions,
    metadataCache,
    forwarder: broker.forwarder,
    clock,
    requestTimeoutMs: AUTO_CREATE_TIMEOUT_MS,
  });
  router.register(initProducerIdHandler(broker.producerIds, transactions));
  const markers = coordinators.markers;
  const verified = verifier === undefined ? {} : { verifier };
  registerTransactionApis(router, {
    ...{ transactions, groups, metadataCache, markers, clock },
    ...verified,
  });
}

/**
 * The group coordinator, the transaction coordinator, its marker channel and the connections
 * that channel uses.
 */
function openCoordinators(parts: NodeParts, broker: BrokerSide): Coordinators {
  const { ports, config, identity } = parts;
  const groups = new GroupCoordinator({
    ...ports,
    config: config.group,
    replicaManager: broker.replicaManager,
    logger: ports.logger.child({ component: "group-coordinator" }),
  });
  const markers = {
    replicaManager: broker.replicaManager,
    groups,
    timers: ports.timers,
    clock: ports.clock,
  };
  const pool = new ClientPool(ports, {
    requestTimeoutMs: AUTO_CREATE_TIMEOUT_MS,
    clientId: `broker-${identity.nodeId}-txn-markers`,
    security: ports.peerSecurity?.interBroker,
  });
  const sender = new BrokerMarkerSender({
    brokerId: identity.nodeId,
    metadataCache: broker.metadataCache,
    listenerName: config.interBrokerListenerName ?? "PLAINTEXT",
    pool,
    local: markers,
    logger: ports.logger.child({ component: "txn-markers" }),
  });
  const transactions = new TransactionCoordinator({
    ...ports,
    config: transactionSettingsOf(config.values),
    replicaManager: broker.replicaManager,
    producerIds: broker.producerIds,
    markers: sender,
    logger: ports.logger.child({ component: "transaction-coordinator" }),
  });
  return { groups, transactions, markers, pool };
}

/**
 * The check with the transaction coordinator (KIP-890) of Produce and TxnOffsetCommit, unless
 * it is turned off.
 */
function produceVerifierOf(
  parts: NodeParts,
  broker: BrokerSide,
  coordinators: Coordinators,
): ProduceVerifier | undefined {
  const { ports, config, identity, logManager } = parts;
  if (!config.values.boolean("transaction.partition.verification.enable")) return undefined;
  const manager = new AddPartitionsToTxnManager({
    brokerId: identity.nodeId,
    transactions: coordinators.transactions,
    metadataCache: broker.metadataCache,
    listenerName: config.interBrokerListenerName ?? "PLAINTEXT",
    pool: coordinators.pool,
    clock: ports.clock,
    metrics: ports.metrics,
    logger: ports.logger.child({ component: "produce-verification" }),
  });
  return new ProduceVerifier({
    manager,
    partitionTransactions: (topicPartition) => {
      const lookup = logManager?.getLog(topicPartition);
      return lookup?.kind === "online" ? lookup.log.transactions : undefined;
    },
    clock: ports.clock,
  });
}

/**
 * The finalized features (KIP-584) of the broker's current image, for ApiVersions v3+:
 * metadata.version, then every other finalized level (eligible.leader.replicas.version when it
 * is on), as Kafka's broker lists them.
 */
function finalizedFeaturesOf(broker: BrokerSide): FinalizedFeatures {
  const image = broker.metadataCache.image;
  const level = image.features.metadataVersion;
  if (level === undefined) return { epoch: -1, features: [] };
  const levels: [string, number][] = [
    [METADATA_VERSION_FEATURE, level],
    ...sortedEntries(image.features.finalizedLevels),
  ];
  return {
    epoch: image.provenance.lastContainedOffset,
    features: levels.map(([name, finalized]) => ({
      name,
      minVersionLevel: finalized,
      maxVersionLevel: finalized,
    })),
  };
}
