/**
 * The space of the volume under a log dir, for DescribeLogDirs v4 (Kafka reads the dir's
 * FileStore). Measuring is I/O on the dir like any other: a failure takes the dir offline.
 */
import type { VolumeSpace } from "../../ports/index.js";
import { guarded, type ManagerCore } from "./manager-core.js";

/**
 * The space of the volume under an online `logDir` (undefined when the file system cannot
 * tell); "offline" when the dir is offline, or failed as it was measured and is offline now.
 */
export async function volumeSpaceOf(
  core: ManagerCore,
  logDir: string,
): Promise<VolumeSpace | undefined | "offline"> {
  if (!core.registry.isOnline(logDir)) return "offline";
  const measured = await guarded(core, logDir, () => core.fileSystem.volumeSpace(logDir));
  return measured.ok ? measured.value : "offline";
}
