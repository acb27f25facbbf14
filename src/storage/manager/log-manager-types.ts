/**
 * The values the log manager hands out: lookups, creation and replica-move outcomes, and the
 * log-dir failure event. Expected refusals are values here; the broker maps them to Kafka's
 * error codes (`errorCodeOf...`).
 */
import { assertNever, ErrorCode } from "../../common/index.js";
import type { PartitionLog, TopicPartition } from "../log/index.js";

/** The answer of `getLog`. */
export type LogLookup =
  | { readonly kind: "online"; readonly log: PartitionLog; readonly logDir: string }
  /** The log is in a dir that failed: KAFKA_STORAGE_ERROR. */
  | { readonly kind: "offlineDir"; readonly logDir: string }
  | { readonly kind: "notFound" };

/** The answer of `getOrCreateLog`. */
export type GetOrCreateLogResult =
  | {
      readonly kind: "log";
      readonly log: PartitionLog;
      readonly logDir: string;
      /** False when the log existed already. */
      readonly isNew: boolean;
    }
  /** The partition's log is in a dir that failed; a new one elsewhere would lose its data. */
  | { readonly kind: "offlineDir"; readonly logDir: string }
  /** Every log dir is offline, or the dir asked for is: KAFKA_STORAGE_ERROR. */
  | { readonly kind: "noOnlineDir" }
  /** A future log needs a current log to copy from, in another dir. */
  | { readonly kind: "noCurrentLog" };

/** The answer of `alterReplicaLogDir` (AlterReplicaLogDirs). */
export type AlterReplicaLogDirResult =
  /** The future log exists in the target dir and catches up in the periodic work. */
  | { readonly kind: "moving"; readonly futureDir: string }
  /** The current log already lives in the target dir; a move elsewhere, if any, was cancelled. */
  | { readonly kind: "alreadyInDir" }
  /** The target is not one of `log.dirs`: LOG_DIR_NOT_FOUND. */
  | { readonly kind: "unknownLogDir" }
  /** The target dir is offline: KAFKA_STORAGE_ERROR. */
  | { readonly kind: "targetDirOffline" }
  /** The partition's current log is in an offline dir: KAFKA_STORAGE_ERROR. */
  | { readonly kind: "currentDirOffline" }
  /** This broker has no log of the partition: REPLICA_NOT_AVAILABLE. */
  | { readonly kind: "unknownPartition" };

/** The Kafka error code an AlterReplicaLogDirs result answers with. */
export function errorCodeOfAlterReplicaLogDir(result: AlterReplicaLogDirResult): number {
  switch (result.kind) {
    case "moving":
    case "alreadyInDir":
      return ErrorCode.NONE;
    case "unknownLogDir":
      return ErrorCode.LOG_DIR_NOT_FOUND;
    case "targetDirOffline":
    case "currentDirOffline":
      return ErrorCode.KAFKA_STORAGE_ERROR;
    case "unknownPartition":
      return ErrorCode.REPLICA_NOT_AVAILABLE;
    default:
      return assertNever(result, "alter replica log dir result");
  }
}

/** The answer of `replaceCurrentWithFutureLog`, the last step of a replica move. */
export type ReplaceLogResult =
  | { readonly kind: "replaced"; readonly log: PartitionLog; readonly logDir: string }
  /** There is no move of the partition under way. */
  | { readonly kind: "noFutureLog" }
  /** A dir failed during the swap; it is offline now and the failure event has fired. */
  | { readonly kind: "dirFailed"; readonly logDir: string };

/** One step of copying a current log into its future log. */
export type CatchUpResult =
  | { readonly kind: "copied"; readonly bytes: number; readonly isCaughtUp: boolean }
  | { readonly kind: "noFutureLog" }
  | { readonly kind: "dirFailed"; readonly logDir: string };

/** Raised once per dir when the dir goes offline (Kafka's LogDirFailureChannel). */
export interface LogDirFailure {
  readonly logDir: string;
  /** Partitions whose current log was in the dir; the broker reports them to the controller. */
  readonly partitions: readonly TopicPartition[];
  /** Partitions whose future log (a move under way) was in the dir. */
  readonly futurePartitions: readonly TopicPartition[];
  readonly cause: unknown;
  /** True when no dir is left online: Kafka halts the broker then. */
  readonly isLastOnlineDir: boolean;
}

/** What one call of `runPeriodicTasks` did. */
export interface PeriodicWork {
  /** The scheduled tasks that ran (by Kafka's task names without the "kafka-" prefix). */
  readonly tasks: readonly string[];
  readonly flushedLogs: number;
  readonly deletedSegments: number;
  /** Logs the cleaner compacted (at most one per online dir per pass). */
  readonly cleanedLogs: number;
  readonly deletedFolders: number;
  readonly copiedBytes: number;
}
