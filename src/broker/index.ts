// The public surface of the broker: the connection layer, the request router and its handler
// contract, the purgatory for delayed operations, and the API handlers written so far.
export {
  SocketServer,
  type SocketServerOptions,
  type SocketServerPorts,
} from "./network/socket-server.driver.js";
export {
  DEFAULT_SOCKET_SERVER_CONFIG,
  socketServerConfig,
  type SocketServerConfig,
} from "./network/socket-server-config.js";
export { BrokerConnection } from "./network/broker-connection.driver.js";
export { NetworkMetrics, type CloseReason } from "./network/network-metrics.js";
export { BrokerTopicStats } from "./apis/broker-topic-stats.js";
export { ClientQuotas, ClientQuotaManager, resolveQuota } from "./quotas/index.js";
export type { QuotaClient, ResolvedQuota } from "./quotas/index.js";
export {
  RequestRouter,
  type RequestRouterOptions,
  type RequestQuota,
  type RoutedResponse,
} from "./router/request-router.driver.js";
export {
  ANONYMOUS_PRINCIPAL,
  NO_RESPONSE,
  closeConnection,
  defineHandler,
  respond,
  throttled,
  type ApiHandler,
  type ConnectionInfo,
  type HandlerContext,
  type HandlerOutcome,
  type HandlerSpec,
  type KafkaPrincipal,
  type RequestContext,
} from "./router/handler.js";
export * from "./security/index.js";
export { registerSaslApis } from "./apis/sasl.js";
export type { ListenerSecurityOptions } from "./network/socket-server.driver.js";
export { hasTopLevelErrorCode, topLevelErrorResponse } from "./router/error-response.js";
export {
  topicPartitionKey,
  type CompletionReason,
  type DelayedOperation,
} from "./purgatory/delayed-operation.js";
export {
  DelayedOperationPurgatory,
  type PurgatoryOptions,
  type PurgatoryPorts,
} from "./purgatory/purgatory.driver.js";
export { PURGE_INTERVAL_DEFAULT } from "./purgatory/purgatory-core.js";
export {
  API_VERSIONS_MAX_VERSION,
  API_VERSIONS_MIN_VERSION,
  apiVersionsHandler,
  registerApiVersions,
  type ApiVersionsHandlerOptions,
} from "./apis/api-versions.js";
export { ASSIGN_BROKER_ID, BrokerLifecycle } from "./lifecycle/broker-lifecycle.js";
export {
  BrokerLifecycleManager,
  type BrokerLifecycleManagerOptions,
} from "./lifecycle/broker-lifecycle-manager.driver.js";
export {
  CATCH_UP_HEARTBEAT_DELAY_MS,
  CONTROLLED_SHUTDOWN_FIRST_RETRY_DELAY_MS,
  DEFAULT_BROKER_LIFECYCLE_CONFIG,
  retryDelayMs,
  type BrokerLifecycleConfig,
  type BrokerLifecycleManagerConfig,
  type UnfenceReadiness,
} from "./lifecycle/lifecycle-config.js";
export type {
  AdvertisedListener,
  BrokerIdentity,
  BrokerState,
  Communication,
  ControlledShutdownOutcome,
  HeartbeatBody,
  HeartbeatReport,
  LifecycleEvent,
  LifecycleStep,
  Registration,
  RegistrationBody,
  SupportedFeature,
} from "./lifecycle/lifecycle-types.js";
export { BrokerLifecycleStoppedError, Milestone } from "./lifecycle/milestone.js";
export {
  persistAssignedNodeId,
  readStoredNodeId,
  type LogDirToFormat,
  type StoredNodeId,
} from "./lifecycle/assigned-node-id.driver.js";
export { newIncarnationId } from "./lifecycle/incarnation-id.driver.js";
export { ControllerTargets, type ControllerEndpoint } from "./forwarding/controller-targets.js";
export {
  ControllerChannel,
  type ControllerChannelOptions,
  type ControllerChannelPorts,
  type ControllerSendOptions,
  type ControllerSendResult,
} from "./forwarding/controller-channel.driver.js";
export { carriesNotController } from "./forwarding/not-controller.js";
export { FORWARDED_API_KEYS, isForwardedToController } from "./forwarding/forwarded-apis.js";
export {
  ControllerForwarder,
  type ForwardResult,
} from "./forwarding/controller-forwarder.driver.js";
export {
  alterPartitionAnswers,
  alterPartitionRequest,
  type AlterPartitionAnswer,
  type AlterPartitionProposal,
} from "./forwarding/alter-partition-batch.js";
export {
  ControllerAlterPartitionSender,
  type BrokerEpochSource,
} from "./forwarding/controller-alter-partition-sender.driver.js";
export {
  ControllerDirectoryAssigner,
  type AssignmentTransport,
  type ControllerDirectoryAssignerOptions,
} from "./forwarding/controller-directory-assigner.driver.js";
export {
  assignReplicasToDirsRequest,
  assignmentErrorCodes,
} from "./forwarding/directory-assignment-batch.js";
export {
  ControllerProducerIdSource,
  allocateProducerIdsRequest,
  blockAnswerOf,
} from "./forwarding/controller-producer-ids.driver.js";
export { INIT_PRODUCER_ID_VERSIONS, initProducerIdHandler } from "./apis/init-producer-id.js";
export {
  registerClientApis,
  type ClientApiConfig,
  type ClientApiDependencies,
  type ClientApis,
} from "./apis/client-apis.js";
export type { Forwarder, ForwardOutcome } from "./apis/forwarder.js";
export { forwardedAdminHandlers } from "./apis/admin-forwarding.driver.js";
export { AutoTopicCreator, type TopicAutoCreation } from "./apis/auto-topic-creation.driver.js";
export { PRODUCE_VERSIONS, produceHandler } from "./apis/produce.driver.js";
export { ProduceVerifier, type ProduceVerifierOptions } from "./apis/produce-verification.js";
export {
  AddPartitionsToTxnManager,
  type AddPartitionsToTxnManagerOptions,
} from "./apis/add-partitions-to-txn-manager.js";
export { FETCH_VERSIONS, fetchHandler } from "./apis/fetch.driver.js";
export { LIST_OFFSETS_VERSIONS, listOffsetsHandler } from "./apis/list-offsets.driver.js";
export { METADATA_VERSIONS, metadataHandler } from "./apis/metadata.js";
export {
  OFFSET_FOR_LEADER_EPOCH_VERSIONS,
  offsetForLeaderEpochHandler,
} from "./apis/offset-for-leader-epoch.js";
export { DELETE_RECORDS_VERSIONS, deleteRecordsHandler } from "./apis/delete-records.driver.js";
export { DESCRIBE_LOG_DIRS_VERSIONS, describeLogDirsHandler } from "./apis/describe-log-dirs.js";
export { DESCRIBE_CLUSTER_VERSIONS, describeClusterHandler } from "./apis/describe-cluster.js";
export { DESCRIBE_CONFIGS_VERSIONS, describeConfigsHandler } from "./apis/describe-configs.js";
export * from "./metadata-cache/index.js";
export * from "./fetch-session/index.js";
export * from "./delayed/index.js";
export { registerGroupApis, type GroupApiDependencies } from "./apis/groups/index.js";
export * from "./apis/transactions/index.js";
