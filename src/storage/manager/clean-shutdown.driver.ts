/**
 * The clean shutdown of one log dir, in Kafka's order: flush and close every log of the dir,
 * write the dir's checkpoints (recovery points are the log end offsets now), and only then write
 * the clean-shutdown marker, so that the marker never promises more than the disk holds.
 */
import { joinPath } from "../../common/index.js";
import { writeTextFileAtomically } from "../atomic-file.driver.js";
import {
  highWatermarksOf,
  logStartOffsetsOf,
  recoveryPointsOf,
  writeOffsets,
} from "./log-dir-checkpoints.driver.js";
import { CLEAN_SHUTDOWN_FILE, formatCleanShutdown } from "./clean-shutdown.js";
import { guarded, type ManagerCore } from "./manager-core.js";

/** Shuts `logDir` down; false when the dir failed on the way (then it has no marker). */
export async function shutdownLogDir(
  core: ManagerCore,
  logDir: string,
  brokerEpoch: number,
): Promise<boolean> {
  const logs = core.registry.logsIn(logDir);
  const files = core.checkpointsOf(logDir);
  const outcome = await guarded(core, logDir, async () => {
    for (const held of logs) await held.log.flush();
    // The offsets are taken after the flush and before the close, while the logs answer.
    const recoveryPoints = recoveryPointsOf(logs);
    const logStartOffsets = logStartOffsetsOf(logs);
    const highWatermarks = highWatermarksOf(logs, core.registry.highWatermarks);
    for (const held of logs) await held.log.close();
    await writeOffsets(files.recoveryPoints, recoveryPoints);
    await writeOffsets(files.logStartOffsets, logStartOffsets);
    await writeOffsets(files.highWatermarks, highWatermarks);
    const markerPath = joinPath(logDir, CLEAN_SHUTDOWN_FILE);
    await writeTextFileAtomically(core.fileSystem, markerPath, formatCleanShutdown(brokerEpoch));
  });
  for (const held of logs) core.registry.remove(held.topicPartition, held.isFuture);
  return outcome.ok;
}
