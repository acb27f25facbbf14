/**
 * The names of snapshot files in the metadata log's folder, as Kafka names them:
 * `<endOffset, 20 digits>-<epoch, 10 digits>.checkpoint`, and `.checkpoint.part` while a
 * snapshot is being written or downloaded.
 */
import { assert } from "../../common/index.js";
import type { SnapshotId } from "../types.js";

/** The suffix of a complete snapshot file (Kafka's Snapshots.SUFFIX). */
export const SNAPSHOT_SUFFIX = ".checkpoint";

/** The suffix Kafka appends to a snapshot file that is not complete yet. */
export const PARTIAL_SUFFIX = ".part";

const OFFSET_DIGITS = 20;
const EPOCH_DIGITS = 10;
const NAME_PATTERN = /^(\d{20})-(\d{10})\.checkpoint(\.part)?$/;

/**
 * The file name of a complete snapshot, as Kafka spells it: `<endOffset>-<epoch>.checkpoint`,
 * the offset padded to 20 digits and the epoch to 10.
 */
export function snapshotFileName(snapshotId: SnapshotId): string {
  assert(Number.isSafeInteger(snapshotId.endOffset), "a snapshot end offset is an integer");
  assert(snapshotId.endOffset >= 0, "a snapshot end offset is not negative");
  assert(snapshotId.epoch >= 0, "a snapshot epoch is not negative");
  const offset = String(snapshotId.endOffset).padStart(OFFSET_DIGITS, "0");
  const epoch = String(snapshotId.epoch).padStart(EPOCH_DIGITS, "0");
  return `${offset}-${epoch}${SNAPSHOT_SUFFIX}`;
}

/** The file name of a snapshot being written or downloaded. */
export function partialSnapshotFileName(snapshotId: SnapshotId): string {
  return `${snapshotFileName(snapshotId)}${PARTIAL_SUFFIX}`;
}

/** What a file name in the metadata log's folder says about snapshots. */
export type ParsedSnapshotName =
  | { readonly kind: "complete"; readonly snapshotId: SnapshotId }
  | { readonly kind: "partial"; readonly snapshotId: SnapshotId }
  | { readonly kind: "other" };

/** Reads a file name; anything that is not a snapshot file is "other". */
export function parseSnapshotFileName(name: string): ParsedSnapshotName {
  const match = NAME_PATTERN.exec(name);
  if (match === null) return { kind: "other" };
  const endOffset = Number(match[1]);
  const epoch = Number(match[2]);
  if (!Number.isSafeInteger(endOffset)) return { kind: "other" };
  const snapshotId = { endOffset, epoch };
  return match[3] === undefined
    ? { kind: "complete", snapshotId }
    : { kind: "partial", snapshotId };
}
