/**
 * Kafka's checkpoint text format: a version line, an entry-count line, then one line per entry,
 * each line ended by "\n". Used by the offset checkpoints of a log dir and by a partition's
 * leader-epoch-checkpoint. Pure text conversion; the drivers do the file I/O.
 */
import {
  assert,
  leaderEpoch,
  offset,
  partitionIndex,
  type LeaderEpoch,
  type Offset,
  type PartitionIndex,
} from "../common/index.js";
import { malformed, parsed, type ParseResult } from "./malformed-file-error.js";

/** How one entry kind turns into a checkpoint line and back. */
export interface CheckpointEntryFormat<T> {
  /** The version number the file's first line must carry. */
  readonly version: number;
  format(entry: T): string;
  /** The entry on `line`, or undefined when the line is not one. */
  parse(line: string): T | undefined;
}

export function formatCheckpoint<T>(
  format: CheckpointEntryFormat<T>,
  entries: readonly T[],
): string {
  const lines = [String(format.version), String(entries.length)];
  for (const entry of entries) lines.push(format.format(entry));
  return `${lines.join("\n")}\n`;
}

/**
 * The entries of a checkpoint text. As Kafka reads it, an empty text or one with only the version
 * line holds no entries; a wrong version, a bad line or an entry count that does not match is
 * malformed.
 */
export function parseCheckpoint<T>(
  format: CheckpointEntryFormat<T>,
  text: string,
): ParseResult<T[]> {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  const [versionLine, countLine, ...entryLines] = lines;
  if (versionLine === undefined) return parsed([]);
  const version = parseDecimal(versionLine.trim());
  if (version !== format.version) {
    return malformed(`unrecognised version ${JSON.stringify(versionLine)}`);
  }
  if (countLine === undefined) return parsed([]);
  const expectedCount = parseDecimal(countLine.trim());
  if (expectedCount === undefined || expectedCount < 0) {
    return malformed(`bad entry count ${JSON.stringify(countLine)}`);
  }
  const entries: T[] = [];
  for (const [index, line] of entryLines.entries()) {
    const entry = format.parse(line);
    if (entry === undefined)
      return malformed(`bad entry on line ${index + 3}: ${JSON.stringify(line)}`);
    entries.push(entry);
  }
  if (entries.length !== expectedCount) {
    return malformed(`expected ${expectedCount} entries, found ${entries.length}`);
  }
  return parsed(entries);
}

/** A decimal integer (optionally negative) that is a safe integer, else undefined. */
export function parseDecimal(text: string): number | undefined {
  if (!/^-?\d{1,17}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** The whitespace-separated fields of a line, as Kafka splits checkpoint lines. */
function fields(line: string): string[] {
  return line.trim().split(/\s+/);
}

/** One line of a recovery-point, replication or log-start offset checkpoint. */
export interface OffsetCheckpointEntry {
  readonly topic: string;
  readonly partition: PartitionIndex;
  readonly offset: Offset;
}

/** Lines `topic partition offset` under version 0. */
export const offsetCheckpointFormat: CheckpointEntryFormat<OffsetCheckpointEntry> = {
  version: 0,
  format(entry) {
    // Legal topic names hold no whitespace, which is what keeps the line format unambiguous.
    assert(/^\S+$/.test(entry.topic), "a checkpointed topic name is non-empty without spaces");
    return `${entry.topic} ${entry.partition} ${entry.offset}`;
  },
  parse(line) {
    const parts = fields(line);
    if (parts.length !== 3) return undefined;
    const [topic, partitionText, offsetText] = parts as [string, string, string];
    const partition = parseDecimal(partitionText);
    const value = parseDecimal(offsetText);
    if (partition === undefined || partition < 0 || partition > 0x7fffffff) return undefined;
    if (value === undefined) return undefined;
    return { topic, partition: partitionIndex(partition), offset: offset(value) };
  },
};

/** One line of a leader-epoch-checkpoint: a leader epoch and the first offset written in it. */
export interface EpochEntry {
  readonly epoch: LeaderEpoch;
  readonly startOffset: Offset;
}

/** Lines `epoch startOffset` under version 0. */
export const leaderEpochCheckpointFormat: CheckpointEntryFormat<EpochEntry> = {
  version: 0,
  format(entry) {
    return `${entry.epoch} ${entry.startOffset}`;
  },
  parse(line) {
    const parts = fields(line);
    if (parts.length !== 2) return undefined;
    const epoch = parseDecimal(parts[0] as string);
    const startOffset = parseDecimal(parts[1] as string);
    if (epoch === undefined || epoch < -0x80000000 || epoch > 0x7fffffff) return undefined;
    if (startOffset === undefined) return undefined;
    return { epoch: leaderEpoch(epoch), startOffset: offset(startOffset) };
  },
};
