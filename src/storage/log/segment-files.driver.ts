/**
 * The three files of one segment (log, offset index, time index) under their Kafka names, and the
 * operations that treat them together: create, open, rename to another stage, delete.
 */
import { joinPath } from "../../common/index.js";
import type { FileHandle, FileSystem } from "../../ports/index.js";
import {
  offsetToFileName,
  segmentFileSuffix,
  type SegmentFileKind,
  type SegmentFileStage,
} from "../file-names.js";
import type { IndexSanity } from "../index-common.js";
import type { OffsetIndex } from "../offset-index.js";
import type { TimeIndex } from "../time-index.js";
import { BufferedIndexFile } from "./buffered-index.driver.js";

/** Where a segment lives and how large its indexes may grow. */
export interface SegmentLocation {
  readonly fileSystem: FileSystem;
  readonly dir: string;
  readonly baseOffset: number;
  /** `segment.index.bytes`. */
  readonly segmentIndexBytes: number;
}

export function segmentFilePath(
  location: Pick<SegmentLocation, "dir" | "baseOffset">,
  kind: SegmentFileKind,
  stage: SegmentFileStage,
): string {
  return joinPath(
    location.dir,
    offsetToFileName(location.baseOffset, segmentFileSuffix(kind, stage)),
  );
}

export interface SegmentHandles {
  readonly log: FileHandle;
  readonly offsetIndex: BufferedIndexFile<OffsetIndex>;
  readonly timeIndex: BufferedIndexFile<TimeIndex>;
  /** The worse of the two index verdicts. */
  readonly indexSanity: IndexSanity;
}

/**
 * Opens the files of a segment in `stage`; with `isNew`, any file left under those names is
 * emptied first (Kafka does the same when it rolls onto a name a crash left behind).
 */
export async function openSegmentFiles(
  location: SegmentLocation,
  stage: SegmentFileStage,
  options: { readonly isNew: boolean },
): Promise<SegmentHandles> {
  const { fileSystem } = location;
  if (options.isNew) {
    for (const kind of ["index", "timeindex"] as const) {
      await replaceFileContent(
        fileSystem,
        segmentFilePath(location, kind, stage),
        new Uint8Array(0),
      );
    }
  }
  const logPath = segmentFilePath(location, "log", stage);
  const log = await fileSystem.open(logPath, { create: options.isNew, truncate: options.isNew });
  return { log, ...(await openIndexFiles(location, stage)) };
}

/** Opens (creating when missing) the two index files of a segment and loads their entries. */
export async function openIndexFiles(
  location: SegmentLocation,
  stage: SegmentFileStage,
): Promise<Omit<SegmentHandles, "log">> {
  const { fileSystem, baseOffset, segmentIndexBytes } = location;
  const indexOptions = { baseOffset, maxIndexSizeBytes: segmentIndexBytes };
  const offsetPath = segmentFilePath(location, "index", stage);
  const opened = await BufferedIndexFile.openOffsetIndex(fileSystem, offsetPath, indexOptions);
  const timePath = segmentFilePath(location, "timeindex", stage);
  const timed = await BufferedIndexFile.openTimeIndex(fileSystem, timePath, indexOptions);
  const indexSanity = opened.sanity.kind !== "sane" ? opened.sanity : timed.sanity;
  return { offsetIndex: opened.file, timeIndex: timed.file, indexSanity };
}

/** Writes `content` as the whole file at `path`, replacing what was there (not atomic). */
export async function replaceFileContent(
  fileSystem: FileSystem,
  path: string,
  content: Uint8Array,
): Promise<void> {
  const handle = await fileSystem.open(path, { create: true, truncate: true });
  try {
    if (content.length > 0) await handle.write(content, 0);
  } finally {
    await handle.close();
  }
}

/** Unlinks `path`; a file already gone is fine (a crash may have removed it). */
export async function unlinkIfExists(fileSystem: FileSystem, path: string): Promise<boolean> {
  if ((await fileSystem.stat(path)) === undefined) return false;
  await fileSystem.unlink(path);
  return true;
}

/** Writes `offsetIndex` and `timeIndex` as the whole index files of a segment and reopens them. */
export async function rewriteIndexFiles(
  location: SegmentLocation,
  stage: SegmentFileStage,
  rebuilt: { readonly offsetIndex: OffsetIndex; readonly timeIndex: TimeIndex },
): Promise<Omit<SegmentHandles, "log">> {
  const { fileSystem } = location;
  const offsetPath = segmentFilePath(location, "index", stage);
  await replaceFileContent(fileSystem, offsetPath, rebuilt.offsetIndex.encode());
  const timePath = segmentFilePath(location, "timeindex", stage);
  await replaceFileContent(fileSystem, timePath, rebuilt.timeIndex.encode());
  return openIndexFiles(location, stage);
}

/** Renames the index files of an open segment from its stage to `stage`. */
export async function renameIndexFiles(
  location: SegmentLocation,
  handles: Omit<SegmentHandles, "log" | "indexSanity">,
  stage: SegmentFileStage,
): Promise<void> {
  const { fileSystem } = location;
  await handles.offsetIndex.renameTo(fileSystem, segmentFilePath(location, "index", stage));
  await handles.timeIndex.renameTo(fileSystem, segmentFilePath(location, "timeindex", stage));
}

/** Removes the three files of a segment in `stage`, those that exist. */
export async function unlinkSegmentFiles(
  location: SegmentLocation,
  stage: SegmentFileStage,
): Promise<void> {
  for (const kind of ["log", "index", "timeindex"] as const) {
    await unlinkIfExists(location.fileSystem, segmentFilePath(location, kind, stage));
  }
}
