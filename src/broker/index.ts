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
export {
  RequestRouter,
  type RequestRouterOptions,
  type RoutedResponse,
} from "./router/request-router.driver.js";
export {
  ANONYMOUS_PRINCIPAL,
  NO_RESPONSE,
  closeConnection,
  respond,
  type ApiHandler,
  type ConnectionInfo,
  type HandlerOutcome,
  type KafkaPrincipal,
  type RequestContext,
  type SecurityProtocol,
} from "./router/handler.js";
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
