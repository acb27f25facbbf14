/**
 * DescribeLogDirs (35, v1-4, Kafka 4's range): every configured log dir of this broker, an
 * offline one with KAFKA_STORAGE_ERROR and nothing in it, an online one with the sizes of the
 * replicas it holds (all, or those asked for), future replicas of a move flagged with their lag
 * behind the current log, and (v4) the total and usable bytes of the volume under the dir, -1
 * where the file system cannot tell or the dir is offline, as Kafka leaves them.
 */
import { AclOperation } from "../../metadata/index.js";
import { ApiKey, type DescribeLogDirsRequest } from "../../protocol/index.js";
import { ErrorCode, dirname } from "../../common/index.js";
import { volumeSpaceOf, type LogManager, type PartitionLog } from "../../storage/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export const DESCRIBE_LOG_DIRS_VERSIONS = { minVersion: 1, maxVersion: 4 } as const;
/** Kafka's value of a volume size it does not know. */
const UNKNOWN_VOLUME_BYTES = -1;

interface PartitionEntry {
  partitionIndex: number;
  partitionSize: number;
  offsetLag: number;
  isFutureKey: boolean;
}

type ReplicasByDir = Map<string, Map<string, PartitionEntry[]>>;

/** The wanted replicas of every online dir, current and future, by dir and topic. */
function replicasByDir(
  logManager: LogManager,
  isWanted: (topic: string, partition: number) => boolean,
): ReplicasByDir {
  const byDir: ReplicasByDir = new Map();
  const add = (log: PartitionLog, isFutureKey: boolean, offsetLag: number) => {
    const { topic, partition } = log.topicPartition;
    if (!isWanted(topic, partition)) return;
    const logDir = dirname(log.dir);
    const topics = byDir.get(logDir) ?? new Map<string, PartitionEntry[]>();
    byDir.set(logDir, topics);
    const entries = topics.get(topic) ?? [];
    topics.set(topic, entries);
    entries.push({ partitionIndex: partition, partitionSize: log.size, offsetLag, isFutureKey });
  };
  for (const log of logManager.allLogs()) add(log, false, 0);
  for (const future of logManager.allFutureLogs()) {
    const current = logManager.getLog(future.topicPartition);
    const currentEnd = current.kind === "online" ? current.log.logEndOffset : future.logEndOffset;
    add(future, true, Math.max(0, currentEnd - future.logEndOffset));
  }
  return byDir;
}

/** One dir's result; the volume is measured first, and a dir that fails to answer is offline. */
async function describeDir(logManager: LogManager, logDir: string, byDir: ReplicasByDir) {
  const space = await volumeSpaceOf(logManager, logDir);
  const known = space === "offline" ? undefined : space;
  const isOnline = space !== "offline" && logManager.isLogDirOnline(logDir);
  const topics = [...(byDir.get(logDir) ?? new Map<string, PartitionEntry[]>())].map(
    ([name, partitions]) => ({ name, partitions }),
  );
  return {
    errorCode: isOnline ? ErrorCode.NONE : ErrorCode.KAFKA_STORAGE_ERROR,
    logDir,
    topics: isOnline ? topics : [],
    totalBytes: isOnline ? (known?.totalBytes ?? UNKNOWN_VOLUME_BYTES) : UNKNOWN_VOLUME_BYTES,
    usableBytes: isOnline ? (known?.usableBytes ?? UNKNOWN_VOLUME_BYTES) : UNKNOWN_VOLUME_BYTES,
  };
}

export function describeLogDirsHandler(
  logManager: LogManager,
): ApiHandler<typeof ApiKey.DescribeLogDirs> {
  return defineHandler(ApiKey.DescribeLogDirs, {
    ...DESCRIBE_LOG_DIRS_VERSIONS,
    authorization: { kind: "cluster", operation: AclOperation.DESCRIBE },
    handle: async (request) => {
      const byDir = replicasByDir(logManager, wantedFilter(request));
      const results = [];
      for (const logDir of logManager.config.logDirs) {
        results.push(await describeDir(logManager, logDir, byDir));
      }
      return respond({ throttleTimeMs: 0, errorCode: ErrorCode.NONE, results });
    },
    errorResponse: (_request, _context, errorCode) =>
      respond({ throttleTimeMs: 0, errorCode, results: [] }),
  });
}

function wantedFilter(
  request: DescribeLogDirsRequest,
): (topic: string, partition: number) => boolean {
  if (request.topics === null) return () => true;
  const wanted = new Set<string>();
  for (const topic of request.topics) {
    for (const partition of topic.partitions) wanted.add(`${topic.topic}\u0000${partition}`);
  }
  return (topic, partition) => wanted.has(`${topic}\u0000${partition}`);
}
