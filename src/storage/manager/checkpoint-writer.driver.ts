/**
 * Writing a log dir's offset checkpoints from the logs it holds: recovery points of every log,
 * log start offsets where they differ from the first segment's base offset (what Kafka writes),
 * and the high watermarks of current logs the replication layer reported.
 */
import type { PartitionLog } from "../log/index.js";
import { writeOffsets, type PartitionOffset } from "./log-dir-checkpoints.driver.js";
import type { HeldLog } from "./log-registry.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { currentDirName } from "./partition-dir-name.js";

/** Which checkpoints to write. */
export interface CheckpointSelection {
  readonly recoveryPoints: boolean;
  readonly logStartOffsets: boolean;
  readonly highWatermarks: boolean;
}

/** Every checkpoint. */
export const ALL_CHECKPOINTS: CheckpointSelection = {
  recoveryPoints: true,
  logStartOffsets: true,
  highWatermarks: true,
};

/** The recovery point of each log held. */
export function recoveryPointsOf(logs: readonly HeldLog<PartitionLog>[]): PartitionOffset[] {
  return logs.map((held) => ({
    topicPartition: held.topicPartition,
    offset: held.log.recoveryPoint,
  }));
}

/**
 * The log start offsets worth keeping: Kafka leaves out a log whose start is its first segment's
 * base offset, since loading finds that one again.
 */
export function logStartOffsetsOf(logs: readonly HeldLog<PartitionLog>[]): PartitionOffset[] {
  return logs
    .filter((held) => held.log.logStartOffset > (held.log.segments()[0]?.baseOffset ?? 0))
    .map((held) => ({ topicPartition: held.topicPartition, offset: held.log.logStartOffset }));
}

/** The known high watermarks of the current logs held. */
export function highWatermarksOf(
  logs: readonly HeldLog<PartitionLog>[],
  highWatermarks: ReadonlyMap<string, number>,
): PartitionOffset[] {
  const offsets: PartitionOffset[] = [];
  for (const held of logs) {
    const highWatermark = highWatermarks.get(currentDirName(held.topicPartition));
    if (held.isFuture || highWatermark === undefined) continue;
    offsets.push({ topicPartition: held.topicPartition, offset: highWatermark });
  }
  return offsets;
}

/**
 * Writes the selected checkpoints of `logDir` from the logs it holds now; false when the dir is
 * offline or failed while writing (then it is offline).
 */
export async function checkpointLogDir(
  core: ManagerCore,
  logDir: string,
  selection: CheckpointSelection,
): Promise<boolean> {
  if (!core.registry.isOnline(logDir)) return false;
  const logs = core.registry.logsIn(logDir);
  const files = core.checkpointsOf(logDir);
  const outcome = await guarded(core, logDir, async () => {
    if (selection.recoveryPoints) await writeOffsets(files.recoveryPoints, recoveryPointsOf(logs));
    if (selection.logStartOffsets) {
      await writeOffsets(files.logStartOffsets, logStartOffsetsOf(logs));
    }
    if (selection.highWatermarks) {
      const offsets = highWatermarksOf(logs, core.registry.highWatermarks);
      await writeOffsets(files.highWatermarks, offsets);
    }
  });
  return outcome.ok;
}

/** Writes the selected checkpoints of every online dir, dirs side by side. */
export async function checkpointAllLogDirs(
  core: ManagerCore,
  selection: CheckpointSelection,
): Promise<void> {
  await Promise.all(
    core.registry.liveLogDirs().map((logDir) => checkpointLogDir(core, logDir, selection)),
  );
}
