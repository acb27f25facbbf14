export { SystemClock } from "./system-clock.js";
export { NodeTimers, type NodeTimersOptions } from "./node-timers.js";
export { CryptoRandom } from "./crypto-random.js";
export { NodeFileSystem } from "./node-file-system.js";
export { NodeFileHandle } from "./node-file-handle.js";
export { toFileSystemError } from "./file-system-error.js";
export { NodeNetwork, type NodeNetworkOptions } from "./node-network.js";
export { NodeConnection } from "./node-connection.js";
export { NodeCrypto } from "./node-crypto.js";
export { rfc2253Of } from "./node-tls.js";
export { EventLoopDelay } from "./event-loop-delay.js";
export { NodeProcesses, type StopSignal } from "./node-processes.js";
export {
  ConsoleLogger,
  formatValue,
  type ConsoleLoggerOptions,
  type LogFormat,
} from "./console-logger.js";
export {
  PrometheusRegistry,
  type PrometheusRegistryOptions,
} from "./metrics/prometheus-registry.js";
export {
  HttpServer,
  type HttpServerOptions,
  type HttpServerRoute,
  type HttpServerResponseRoute,
  type HttpServerStreamRoute,
  type HttpServerRequest,
  type HttpServerResponse,
} from "./http-server.js";
export { readOpenFileLimit, parseOpenFileLimit } from "./open-file-limit.js";
export { createTemporaryDirectory } from "./temporary-directory.js";
export { ProcessMetrics, GC_BUCKETS } from "./process-metrics.js";
