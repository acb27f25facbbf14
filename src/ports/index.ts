export type { Clock } from "./clock.js";
export type { Timer, Timers } from "./timers.js";
export type { Random } from "./random.js";
export type {
  FileSystem,
  FileHandle,
  FileStat,
  OpenOptions,
  FileSystemErrorCode,
  VolumeSpace,
} from "./fs.js";
export { FileSystemError, isDescriptorExhaustion, isFileSystemError } from "./fs.js";
export type {
  Address,
  Connection,
  ConnectionHandlers,
  Listener,
  Network,
  TlsClientSettings,
  TlsListenerOptions,
  TlsServerSettings,
  TlsSession,
} from "./net.js";
export type { Crypto, HashAlgorithm } from "./crypto.js";
export type { Logger, LogFields, LogLevel } from "./logger.js";
export type { MetricsSink, MetricLabels, Counter, Gauge, Histogram } from "./metrics.js";
