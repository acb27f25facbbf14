/**
 * What to do with the partition folders found in the log dirs at start, decided before any log
 * is opened. Pure.
 *
 * Kafka's rules, plus one of Sluice's for crash safety of replica moves: a current log per
 * partition (two in different dirs is a fatal inconsistency, as in Kafka), future logs kept as
 * moves to resume, `-delete` folders deleted later, `-stray` folders left alone. A future log
 * whose partition has no current log is what a crash leaves between the two renames of a swap
 * (the current log was renamed to `-delete` first, after the future log caught up and was
 * flushed), so it becomes the current log, but only when every dir is online: with a dir
 * offline the current log may simply be in that dir.
 */
import type { TopicPartition } from "../log/index.js";
import { currentDirName, parsePartitionDirName } from "./partition-dir-name.js";

/** The metadata topic's folder belongs to the raft log, not to the log manager (as in Kafka). */
export const METADATA_TOPIC = "__cluster_metadata";

/** A partition folder in a log dir. */
export interface PartitionFolder {
  readonly logDir: string;
  readonly name: string;
  readonly topicPartition: TopicPartition;
}

/** What the dirs' listings mean. */
export interface LoadPlan {
  readonly currentLogs: readonly PartitionFolder[];
  readonly futureLogs: readonly PartitionFolder[];
  /** Future logs to rename to their current name and load as current logs. */
  readonly promotions: readonly PartitionFolder[];
  readonly deletedFolders: readonly PartitionFolder[];
  /** Names that are not partition folders, and stray logs: left as they are, and logged. */
  readonly ignored: readonly { readonly logDir: string; readonly name: string }[];
}

/** A partition has a current log in two dirs; the operator must remove one (as in Kafka). */
export class DuplicateLogDirectoriesError extends Error {
  override readonly name = "DuplicateLogDirectoriesError";
  constructor(
    readonly topicPartition: TopicPartition,
    readonly paths: readonly [string, string],
  ) {
    super(
      `the log of ${currentDirName(topicPartition)} is in both ${paths[0]} and ${paths[1]}; ` +
        "remove the copy in the dir that failed most recently and start again",
    );
  }
}

/** The folders found in one online dir: sub-folder names only. */
export interface DirListing {
  readonly logDir: string;
  readonly folderNames: readonly string[];
}

/** The plan for `listings`; throws DuplicateLogDirectoriesError for a doubled log. */
export function planLoad(listings: readonly DirListing[], isEveryDirOnline: boolean): LoadPlan {
  const current = new Map<string, PartitionFolder>();
  const future = new Map<string, PartitionFolder>();
  const deletedFolders: PartitionFolder[] = [];
  const ignored: { logDir: string; name: string }[] = [];
  for (const { logDir, folderNames } of listings) {
    for (const name of folderNames) {
      const parsed = parsePartitionDirName(name);
      if (parsed === undefined || parsed.kind === "stray") {
        ignored.push({ logDir, name });
        continue;
      }
      if (parsed.topicPartition.topic === METADATA_TOPIC) continue;
      const folder = { logDir, name, topicPartition: parsed.topicPartition };
      if (parsed.kind === "delete") deletedFolders.push(folder);
      else addUnique(parsed.kind === "current" ? current : future, folder);
    }
  }
  const promotions = [...future.entries()]
    .filter(([key]) => isEveryDirOnline && !current.has(key))
    .map(([, folder]) => folder);
  const promoted = new Set(promotions);
  return {
    currentLogs: [...current.values()],
    futureLogs: [...future.values()].filter((folder) => !promoted.has(folder)),
    promotions,
    deletedFolders,
    ignored,
  };
}

function addUnique(folders: Map<string, PartitionFolder>, folder: PartitionFolder): void {
  const key = currentDirName(folder.topicPartition);
  const previous = folders.get(key);
  if (previous !== undefined) {
    throw new DuplicateLogDirectoriesError(folder.topicPartition, [
      `${previous.logDir}/${previous.name}`,
      `${folder.logDir}/${folder.name}`,
    ]);
  }
  folders.set(key, folder);
}
