/**
 * Kafka's names for the files of a partition folder: a segment's files are named by the base
 * offset as 20 zero-padded digits plus a suffix, e.g. `00000000000000000042.index`.
 */
import { assert, offset, type Offset } from "../common/index.js";

/** The suffixes of the files the log keeps per segment and for its producer snapshots. */
export const LOG_FILE_SUFFIX = ".log";
export const INDEX_FILE_SUFFIX = ".index";
export const TIME_INDEX_FILE_SUFFIX = ".timeindex";
export const SNAPSHOT_FILE_SUFFIX = ".snapshot";
export const TRANSACTION_INDEX_FILE_SUFFIX = ".txnindex";

/** Suffixes added after a segment file's own suffix while the log deletes, cleans or swaps it. */
export const DELETED_FILE_SUFFIX = ".deleted";
export const CLEANED_FILE_SUFFIX = ".cleaned";
export const SWAP_FILE_SUFFIX = ".swap";

/** The kinds of file a segment base offset can name. */
export type SegmentFileKind = "log" | "index" | "timeindex" | "snapshot" | "txnindex";

/** The stage a file is in when its name carries one of the temporary suffixes. */
export type SegmentFileStage = "live" | "deleted" | "cleaned" | "swap";

/** What a segment file name says: base offset, kind, and stage. */
export interface SegmentFileName {
  readonly baseOffset: Offset;
  readonly kind: SegmentFileKind;
  readonly stage: SegmentFileStage;
}

const DIGITS = 20;
const NAME_PATTERN =
  /^(\d{20})\.(log|index|timeindex|snapshot|txnindex)(?:\.(deleted|cleaned|swap))?$/;

/** `baseOffset` as 20 zero-padded digits followed by `suffix` (".index", ".log.deleted", ...). */
export function offsetToFileName(baseOffset: number, suffix: string): string {
  assert(Number.isSafeInteger(baseOffset), "a file's base offset is a safe integer");
  assert(baseOffset >= 0, "a file's base offset is not negative");
  return `${String(baseOffset).padStart(DIGITS, "0")}${suffix}`;
}

/** The parts of a segment file name, or undefined for any other name. */
export function parseSegmentFileName(name: string): SegmentFileName | undefined {
  const match = NAME_PATTERN.exec(name);
  if (match === null) return undefined;
  const baseOffset = Number(match[1]);
  // Twenty digits can exceed 2^53; such offsets do not exist in Sluice (DESIGN: 64-bit integers).
  if (!Number.isSafeInteger(baseOffset)) return undefined;
  return {
    baseOffset: offset(baseOffset),
    kind: match[2] as SegmentFileKind,
    stage: (match[3] ?? "live") as SegmentFileStage,
  };
}

/** The suffix a file of `kind` in `stage` carries, the inverse of parseSegmentFileName. */
export function segmentFileSuffix(kind: SegmentFileKind, stage: SegmentFileStage = "live"): string {
  const base = `.${kind}`;
  return stage === "live" ? base : `${base}.${stage}`;
}
