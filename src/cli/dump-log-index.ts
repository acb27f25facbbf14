/**
 * `sluice dump-log` for a segment's `.index` and `.timeindex`: prints the entries and checks each
 * against the sibling `.log`, as Kafka's tool does. An offset index entry must name a batch
 * boundary whose batch holds the entry's offset; a time index entry's offset must lie in a batch
 * whose maxTimestamp is the entry's timestamp, and timestamps must increase.
 */
import { basename, dirname, joinPath } from "../common/index.js";
import {
  OFFSET_INDEX_ENTRY_BYTES,
  TIME_INDEX_ENTRY_BYTES,
  offsetToFileName,
  parseSegmentFileName,
  segmentFileSuffix,
} from "../storage/index.js";
import { emit, heading, reportProblem, type DumpContext } from "./dump-log-context.js";
import { readAt } from "./dump-log-scan.js";
import {
  findBatchAt,
  findBatchHolding,
  readLogBatches,
  type LogBatches,
} from "./dump-log-batches.js";

/** One raw entry of either index: the absolute offset and, by kind, position or timestamp. */
interface IndexEntry {
  readonly offset: number;
  /** The position (offset index) or the timestamp (time index). */
  readonly value: number;
}

/** The entries of an index file up to its zero padding, and bytes that fit no entry. */
function decodeEntries(
  bytes: Uint8Array,
  kind: "index" | "timeindex",
  baseOffset: number,
): { entries: IndexEntry[]; trailingBytes: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entrySize = kind === "index" ? OFFSET_INDEX_ENTRY_BYTES : TIME_INDEX_ENTRY_BYTES;
  const entries: IndexEntry[] = [];
  const slots = Math.floor(bytes.length / entrySize);
  for (let slot = 0; slot < slots; slot++) {
    const at = slot * entrySize;
    const value = kind === "index" ? view.getInt32(at + 4) : Number(view.getBigInt64(at));
    const relativeOffset = view.getInt32(kind === "index" ? at : at + 8);
    // Kafka preallocates index files, so an all-zero entry is where the written part ends.
    if (value === 0 && relativeOffset === 0) break;
    entries.push({ offset: baseOffset + relativeOffset, value });
  }
  return { entries, trailingBytes: bytes.length % entrySize };
}

/** Dumps the index at `path`; resolves to false when it is damaged or disagrees with the log. */
export async function dumpIndex(
  context: DumpContext,
  path: string,
  kind: "index" | "timeindex",
): Promise<boolean> {
  heading(context, `Dumping ${path}`, path);
  const name = parseSegmentFileName(basename(path));
  const baseOffset = name?.baseOffset ?? 0;
  const file = await context.fileSystem.open(path, { readOnly: true });
  let bytes: Uint8Array;
  try {
    bytes = await readAt(file, 0, await file.size());
  } finally {
    await file.close();
  }
  const { entries, trailingBytes } = decodeEntries(bytes, kind, baseOffset);
  for (const entry of entries) {
    const fields: Array<readonly [string, number]> =
      kind === "index"
        ? [
            ["offset", entry.offset],
            ["position", entry.value],
          ]
        : [
            ["timestamp", entry.value],
            ["offset", entry.offset],
          ];
    emit(context, "entry", fields);
  }
  let isSound = true;
  if (trailingBytes !== 0) {
    const message = `${trailingBytes} trailing bytes do not make a whole entry`;
    reportProblem(context, { file: path, message });
    isSound = false;
  }
  const logPath =
    name === undefined ? undefined : siblingLogPath(path, name.baseOffset, name.stage);
  if (logPath === undefined || (await context.fileSystem.stat(logPath)) === undefined) {
    if (!context.options.json) context.write(`No sibling log file; the entries are not checked`);
    return isSound;
  }
  const log = await readLogBatches(context, logPath);
  const mismatches =
    kind === "index" ? checkOffsetIndex(entries, log) : checkTimeIndex(entries, log);
  for (const message of mismatches) reportProblem(context, { file: path, message });
  return isSound && mismatches.length === 0;
}

/** The `.log` file of the same segment and stage as the index at `path`. */
function siblingLogPath(
  path: string,
  baseOffset: number,
  stage: Parameters<typeof segmentFileSuffix>[1],
): string {
  return joinPath(dirname(path), offsetToFileName(baseOffset, segmentFileSuffix("log", stage)));
}

/** Kafka's "Index mismatch" checks of an offset index against its log. */
function checkOffsetIndex(entries: readonly IndexEntry[], log: LogBatches): string[] {
  const mismatches: string[] = [];
  let previous: IndexEntry | undefined;
  for (const entry of entries) {
    const where = `entry offset ${entry.offset} position ${entry.value}`;
    if (
      previous !== undefined &&
      (entry.offset <= previous.offset || entry.value <= previous.value)
    ) {
      mismatches.push(`Index out of order: ${where} does not pass the previous entry`);
    }
    previous = entry;
    const batch = findBatchAt(log, entry.value);
    if (batch === undefined) {
      mismatches.push(`Index mismatch: ${where} is not the position of a batch in the log`);
    } else if (entry.offset < batch.baseOffset || entry.offset > batch.lastOffset) {
      const range = `${batch.baseOffset}..${batch.lastOffset}`;
      mismatches.push(`Index mismatch: ${where} points at the batch of offsets ${range}`);
    }
  }
  return mismatches;
}

/** Kafka's timestamp mismatch and out-of-order checks of a time index against its log. */
function checkTimeIndex(entries: readonly IndexEntry[], log: LogBatches): string[] {
  const mismatches: string[] = [];
  let previousTimestamp: number | undefined;
  for (const entry of entries) {
    const where = `entry timestamp ${entry.value} offset ${entry.offset}`;
    if (previousTimestamp !== undefined && entry.value <= previousTimestamp) {
      mismatches.push(`Out of order timestamp: ${where} after timestamp ${previousTimestamp}`);
    }
    previousTimestamp = entry.value;
    const batch = findBatchHolding(log, entry.offset);
    if (batch === undefined) {
      mismatches.push(`Index mismatch: ${where}: no batch in the log holds the offset`);
    } else if (batch.maxTimestamp !== entry.value) {
      const found = `the batch's maxTimestamp is ${batch.maxTimestamp}`;
      mismatches.push(`Index timestamp mismatch: ${where}: ${found}`);
    }
  }
  return mismatches;
}
