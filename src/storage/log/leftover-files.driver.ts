/**
 * What a crash leaves in a partition folder besides live segments, handled before the segments
 * load, as Kafka's LogLoader does: `.deleted` files are removed (their deletion was decided);
 * `.cleaned` files are removed (the cleaner's output was not yet swapped in) with every `.swap`
 * file at or above the lowest of them (an unfinished split); the remaining `.swap` segments
 * complete their swap: their indexes are rebuilt, the live segments they replace are removed,
 * and they are renamed live. Index files without a log file are removed as well.
 */
import { joinPath } from "../../common/index.js";
import type { FileSystem, Logger } from "../../ports/index.js";
import { parseSegmentFileName, type SegmentFileName } from "../file-names.js";
import { LogSegment, type SegmentOptions } from "./log-segment.driver.js";
import { segmentFilePath } from "./segment-files.driver.js";
import { recoverSegment } from "./segment-recovery.driver.js";

export interface LeftoverContext {
  readonly fileSystem: FileSystem;
  readonly dir: string;
  readonly logger: Logger;
  readonly segmentOptions: (baseOffset: number) => SegmentOptions;
  readonly indexIntervalBytes: number;
  readonly segmentIndexBytes: number;
}

interface NamedFile extends SegmentFileName {
  readonly name: string;
}

async function listSegmentFiles(fileSystem: FileSystem, dir: string): Promise<NamedFile[]> {
  const files: NamedFile[] = [];
  for (const name of await fileSystem.readdir(dir)) {
    const parsed = parseSegmentFileName(name);
    if (parsed !== undefined) files.push({ ...parsed, name });
  }
  return files;
}

/** Handles the leftovers in the folder; resolves to how many files it removed or renamed. */
export async function handleLeftoverFiles(context: LeftoverContext): Promise<number> {
  const { fileSystem, dir } = context;
  const files = await listSegmentFiles(fileSystem, dir);
  let handled = 0;
  const remove = async (file: NamedFile): Promise<void> => {
    await fileSystem.unlink(joinPath(dir, file.name));
    handled++;
  };
  const cleaned = files.filter((file) => file.stage === "cleaned");
  const minCleanedOffset = Math.min(...cleaned.map((file) => file.baseOffset));
  for (const file of files) {
    const isUnfinishedSplit = file.stage === "swap" && file.baseOffset >= minCleanedOffset;
    if (file.stage === "deleted" || file.stage === "cleaned" || isUnfinishedSplit)
      await remove(file);
  }
  const swaps = files.filter((file) => file.stage === "swap" && file.baseOffset < minCleanedOffset);
  const swapLogs = swaps.filter((file) => file.kind === "log");
  const swapBases = new Set(swapLogs.map((file) => file.baseOffset));
  for (const file of swaps) {
    if (
      !swapBases.has(file.baseOffset) ||
      (file.kind !== "index" && file.kind !== "timeindex" && file.kind !== "log")
    ) {
      await remove(file);
    }
  }
  handled += await completeSwaps(
    context,
    [...swapBases].sort((a, b) => a - b),
    files,
  );
  handled += await removeOrphanIndexes(context);
  return handled;
}

/** Rebuilds each swap segment, removes the live segments it covers, and renames it live. */
async function completeSwaps(
  context: LeftoverContext,
  swapBases: readonly number[],
  files: readonly NamedFile[],
): Promise<number> {
  if (swapBases.length === 0) return 0;
  const { fileSystem, dir, logger } = context;
  const swapped: LogSegment[] = [];
  let endOffset = 0;
  for (const baseOffset of swapBases) {
    const { segment } = await LogSegment.open(context.segmentOptions(baseOffset), "swap");
    const recovery = await recoverSegment(segment, context);
    endOffset = Math.max(endOffset, recovery.nextOffset);
    swapped.push(segment);
  }
  const startOffset = swapBases[0] as number;
  let handled = 0;
  for (const file of files) {
    if (file.stage !== "live" || file.baseOffset < startOffset || file.baseOffset >= endOffset)
      continue;
    if (file.kind !== "log" && file.kind !== "index" && file.kind !== "timeindex") continue;
    await fileSystem.unlink(joinPath(dir, file.name));
    handled++;
  }
  for (const segment of swapped) {
    logger.info("completing an interrupted segment swap", { dir, baseOffset: segment.baseOffset });
    await segment.changeStage("live");
    await segment.flush({ withIndexes: true });
    await segment.close();
    handled++;
  }
  await fileSystem.syncDirectory(dir);
  return handled;
}

/** Removes live index files whose segment has no log file. */
async function removeOrphanIndexes(context: LeftoverContext): Promise<number> {
  const { fileSystem, dir } = context;
  const files = await listSegmentFiles(fileSystem, dir);
  const logBases = new Set(
    files
      .filter((file) => file.kind === "log" && file.stage === "live")
      .map((file) => file.baseOffset),
  );
  let handled = 0;
  for (const file of files) {
    if (file.stage !== "live" || (file.kind !== "index" && file.kind !== "timeindex")) continue;
    if (logBases.has(file.baseOffset)) continue;
    await fileSystem.unlink(
      segmentFilePath({ dir, baseOffset: file.baseOffset }, file.kind, "live"),
    );
    handled++;
  }
  return handled;
}
