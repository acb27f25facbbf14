/**
 * The names Kafka gives the folders of a log dir: `<topic>-<partition>` for a partition's current
 * log, and `<topic>-<partition>.<unique id>-<suffix>` while the folder waits to be deleted
 * (`-delete`), holds a replica being moved into this dir (`-future`), or holds a log the broker
 * found no assignment for (`-stray`). The unique id is a random Uuid as 32 hex digits.
 */
import { assert, type Uuid } from "../../common/index.js";
import type { TopicPartition } from "../log/index.js";

/** Kafka's suffixes of partition folders that are not a current log. */
export const DELETE_DIR_SUFFIX = "-delete";
export const FUTURE_DIR_SUFFIX = "-future";
export const STRAY_DIR_SUFFIX = "-stray";

/** The longest file name the file systems Kafka supports allow; deleted names are capped to it. */
const FILE_NAME_LENGTH_MAX = 255;

/** What a folder of a log dir holds, by its name. */
export type PartitionDirKind = "current" | "future" | "delete" | "stray";

export interface PartitionDirName {
  readonly kind: PartitionDirKind;
  readonly topicPartition: TopicPartition;
}

const SUFFIXED_PATTERN = /^(\S+)-(\S+)\.(\S+)-(delete|future|stray)$/;

/** `<topic>-<partition>`, the folder of a partition's current log. */
export function currentDirName(topicPartition: TopicPartition): string {
  return `${topicPartition.topic}-${topicPartition.partition}`;
}

/** `<topic>-<partition>.<uniqueId>-future`, the folder of a replica being moved into a dir. */
export function futureDirName(topicPartition: TopicPartition, uniqueId: Uuid): string {
  return `${currentDirName(topicPartition)}.${uniqueId}${FUTURE_DIR_SUFFIX}`;
}

/**
 * `<topic>-<partition>.<uniqueId>-delete`, the folder a deleted log is renamed to. As Kafka does,
 * the topic is shortened when the name would pass 255 characters; the folder is only deleted,
 * so the lost part of the name does not matter.
 */
export function deleteDirName(topicPartition: TopicPartition, uniqueId: Uuid): string {
  return cappedName(topicPartition, uniqueId, DELETE_DIR_SUFFIX);
}

/** `<topic>-<partition>.<uniqueId>-stray`, capped like a deleted folder's name. */
export function strayDirName(topicPartition: TopicPartition, uniqueId: Uuid): string {
  return cappedName(topicPartition, uniqueId, STRAY_DIR_SUFFIX);
}

function cappedName(topicPartition: TopicPartition, uniqueId: Uuid, suffix: string): string {
  const tail = `-${topicPartition.partition}.${uniqueId}${suffix}`;
  const topicLength = Math.min(topicPartition.topic.length, FILE_NAME_LENGTH_MAX - tail.length);
  assert(topicLength > 0, "a capped folder name keeps part of the topic");
  return `${topicPartition.topic.slice(0, topicLength)}${tail}`;
}

/**
 * What the folder `name` holds, or undefined when the name is not a partition folder. As Kafka
 * parses it, the partition is the text after the last "-" of the name without its suffix.
 */
export function parsePartitionDirName(name: string): PartitionDirName | undefined {
  const suffixed = SUFFIXED_PATTERN.exec(name);
  const kind = suffixed === null ? "current" : (suffixed[4] as PartitionDirKind);
  if (suffixed === null && /-(delete|future|stray)$/.test(name)) return undefined;
  const base = suffixed === null ? name : name.slice(0, name.lastIndexOf("."));
  const dash = base.lastIndexOf("-");
  if (dash <= 0) return undefined;
  const topic = base.slice(0, dash);
  const partitionText = base.slice(dash + 1);
  if (!/^\d{1,10}$/.test(partitionText)) return undefined;
  const partition = Number(partitionText);
  if (partition > 0x7fffffff) return undefined;
  return { kind, topicPartition: { topic, partition } };
}
