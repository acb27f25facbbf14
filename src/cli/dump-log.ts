/**
 * `sluice dump-log [options] FILE...`: prints the content of Kafka's on-disk files as Kafka's
 * kafka-dump-log.sh does, for segments written by Sluice or by a Kafka broker (the format is the
 * same). Knows `.log` segments, `.index` and `.timeindex` (checked against the sibling `.log`),
 * `.txnindex` and producer state `.snapshot` files, the offset checkpoints of a log dir,
 * `leader-epoch-checkpoint`, `partition.metadata` and `meta.properties`. The exit code is
 * non-zero when any file is damaged or unknown.
 */
import { basename } from "../common/index.js";
import { isFileSystemError, type FileSystem } from "../ports/index.js";
import { decompressionLimitFor } from "../protocol/index.js";
import {
  CLEANER_OFFSET_CHECKPOINT_FILE,
  LEADER_EPOCH_CHECKPOINT_FILE,
  LOG_START_OFFSET_CHECKPOINT_FILE,
  META_PROPERTIES_FILE,
  PARTITION_METADATA_FILE,
  RECOVERY_POINT_CHECKPOINT_FILE,
  REPLICATION_CHECKPOINT_FILE,
  parseSegmentFileName,
} from "../storage/index.js";
import { parseCommandOptions } from "./command-options.js";
import { reportProblem, type DumpContext, type DumpOptions } from "./dump-log-context.js";
import { dumpTextFile, type TextFileKind } from "./dump-log-files.js";
import { dumpIndex } from "./dump-log-index.js";
import { dumpProducerSnapshot, dumpTransactionIndex } from "./dump-log-producers.js";
import { dumpLogSegment } from "./dump-log-segment.js";

/** Exit codes: every file read cleanly, some file is damaged, or the command line is wrong. */
export const DUMP_LOG_EXIT = { ok: 0, damaged: 1, usage: 2 } as const;

/** The largest batch read by default; a larger declared size is treated as corruption. */
export const DEFAULT_MAX_BATCH_BYTES = 256 * 1024 * 1024;

export const DUMP_LOG_USAGE =
  "usage: sluice dump-log [--print-records|--deep-iteration] [--json] " +
  "[--max-batch-bytes N] FILE... (or --files FILE,FILE)";

export interface DumpLogIo {
  readonly fileSystem: FileSystem;
  /** Receives each output line without its line end. */
  readonly write: (line: string) => void;
}

type ParsedArguments =
  | { readonly kind: "ok"; readonly files: string[]; readonly options: DumpOptions }
  | { readonly kind: "usage"; readonly message: string };

const offsetCheckpointNames = new Set([
  RECOVERY_POINT_CHECKPOINT_FILE,
  REPLICATION_CHECKPOINT_FILE,
  LOG_START_OFFSET_CHECKPOINT_FILE,
  CLEANER_OFFSET_CHECKPOINT_FILE,
]);

/** Reads the command line after `dump-log`. */
export function parseDumpLogArguments(args: readonly string[]): ParsedArguments {
  const parsed = parseCommandOptions(args, {
    booleans: ["--print-records", "--deep-iteration", "--print-data-log", "--json"],
    values: ["--max-batch-bytes"],
    repeatable: ["--files"],
  });
  if (parsed.kind === "usage") return parsed;
  const { booleans, values, repeated, positionals } = parsed;
  const listed = (repeated.get("--files") ?? []).flatMap((value) => value.split(","));
  const files = [...listed, ...positionals].filter((file) => file !== "");
  const printRecords = ["--print-records", "--deep-iteration", "--print-data-log"].some((flag) =>
    booleans.has(flag),
  );
  const maxBatchBytesText = values.get("--max-batch-bytes");
  const maxBatchBytes =
    maxBatchBytesText === undefined ? DEFAULT_MAX_BATCH_BYTES : Number(maxBatchBytesText);
  if (!Number.isSafeInteger(maxBatchBytes) || maxBatchBytes < 61) {
    return { kind: "usage", message: `--max-batch-bytes ${maxBatchBytesText} is not a batch size` };
  }
  if (files.length === 0) return { kind: "usage", message: "no file given" };
  const maxDecompressedBytes = decompressionLimitFor({ messageMaxBytes: maxBatchBytes });
  const json = booleans.has("--json");
  return {
    kind: "ok",
    files,
    options: { printRecords, json, maxBatchBytes, maxDecompressedBytes },
  };
}

/** Runs `sluice dump-log` with the arguments after the command name; resolves to the exit code. */
export async function dumpLog(args: readonly string[], io: DumpLogIo): Promise<number> {
  const parsed = parseDumpLogArguments(args);
  if (parsed.kind === "usage") {
    io.write(`sluice dump-log: ${parsed.message}`);
    io.write(DUMP_LOG_USAGE);
    return DUMP_LOG_EXIT.usage;
  }
  const context: DumpContext = { ...io, options: parsed.options };
  let isEverythingSound = true;
  for (const file of parsed.files) {
    const isSound = await dumpFileOrReport(context, file);
    isEverythingSound &&= isSound;
  }
  return isEverythingSound ? DUMP_LOG_EXIT.ok : DUMP_LOG_EXIT.damaged;
}

/** Dumps one file; a file that cannot be read is reported, and the next file is dumped. */
async function dumpFileOrReport(context: DumpContext, path: string): Promise<boolean> {
  try {
    return await dumpFile(context, path);
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    reportProblem(context, { file: path, message: `cannot be read: ${error.message}` });
    return false;
  }
}

/** Dumps one file by what its name says it is. */
async function dumpFile(context: DumpContext, path: string): Promise<boolean> {
  const name = basename(path);
  const segmentFile = parseSegmentFileName(name);
  if (segmentFile?.kind === "log") return dumpLogSegment(context, path);
  if (segmentFile?.kind === "index" || segmentFile?.kind === "timeindex") {
    return dumpIndex(context, path, segmentFile.kind);
  }
  if (segmentFile?.kind === "txnindex") return dumpTransactionIndex(context, path);
  if (segmentFile?.kind === "snapshot") return dumpProducerSnapshot(context, path);
  const textKind = textFileKind(name);
  if (textKind !== undefined) return dumpTextFile(context, path, textKind);
  reportProblem(context, { file: path, message: "not a file kind that dump-log knows; ignored" });
  return false;
}

function textFileKind(name: string): TextFileKind | undefined {
  if (offsetCheckpointNames.has(name)) return "offsetCheckpoint";
  if (name === LEADER_EPOCH_CHECKPOINT_FILE) return "leaderEpochCheckpoint";
  if (name === PARTITION_METADATA_FILE) return "partitionMetadata";
  if (name === META_PROPERTIES_FILE) return "metaProperties";
  return undefined;
}
