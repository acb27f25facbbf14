/**
 * DescribeLogDirs (35, v1-3; Kafka 3.2 served up to v3): every configured log dir of this
 * broker, an offline one with KAFKA_STORAGE_ERROR and nothing in it, an online one with the
 * sizes of the replicas it holds (all, or those asked for), future replicas of a move flagged
 * with their lag behind the current log. Not v4: its disk totals need volume sizes, which the
 * file-system port does not report, and Kafka sends -1 only for a dir it cannot read.
 */
import { ApiKey, type DescribeLogDirsRequest } from "../../protocol/index.js";
import { ErrorCode, dirname } from "../../common/index.js";
import type { LogManager, PartitionLog } from "../../storage/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export const DESCRIBE_LOG_DIRS_VERSIONS = { minVersion: 1, maxVersion: 3 } as const;
/** Kafka's value of a volume size it does not know. */
const UNKNOWN_VOLUME_BYTES = -1;

interface PartitionEntry {
  partitionIndex: number;
  partitionSize: number;
  offsetLag: number;
  isFutureKey: boolean;
}

export function describeLogDirsHandler(
  logManager: LogManager,
): ApiHandler<typeof ApiKey.DescribeLogDirs> {
  return defineHandler(ApiKey.DescribeLogDirs, {
    ...DESCRIBE_LOG_DIRS_VERSIONS,
    handle: (request) => {
      const isWanted = wantedFilter(request);
      const byDir = new Map<string, Map<string, PartitionEntry[]>>();
      const add = (log: PartitionLog, isFutureKey: boolean, offsetLag: number) => {
        const { topic, partition } = log.topicPartition;
        if (!isWanted(topic, partition)) return;
        const logDir = dirname(log.dir);
        const topics = byDir.get(logDir) ?? new Map<string, PartitionEntry[]>();
        byDir.set(logDir, topics);
        const entries = topics.get(topic) ?? [];
        topics.set(topic, entries);
        entries.push({
          partitionIndex: partition,
          partitionSize: log.size,
          offsetLag,
          isFutureKey,
        });
      };
      for (const log of logManager.allLogs()) add(log, false, 0);
      for (const future of logManager.allFutureLogs()) {
        const current = logManager.getLog(future.topicPartition);
        const currentEnd =
          current.kind === "online" ? current.log.logEndOffset : future.logEndOffset;
        add(future, true, Math.max(0, currentEnd - future.logEndOffset));
      }
      const results = logManager.config.logDirs.map((logDir) => {
        const isOnline = logManager.isLogDirOnline(logDir);
        const topics = [...(byDir.get(logDir) ?? new Map<string, PartitionEntry[]>())].map(
          ([name, partitions]) => ({ name, partitions }),
        );
        return {
          errorCode: isOnline ? ErrorCode.NONE : ErrorCode.KAFKA_STORAGE_ERROR,
          logDir,
          topics: isOnline ? topics : [],
          totalBytes: UNKNOWN_VOLUME_BYTES,
          usableBytes: UNKNOWN_VOLUME_BYTES,
        };
      });
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
