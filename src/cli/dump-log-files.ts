/**
 * `sluice dump-log` for the small text files of a log dir and a partition folder: the offset
 * checkpoints, `leader-epoch-checkpoint`, `partition.metadata` and `meta.properties`, printed
 * parsed, or reported as malformed.
 */
import {
  MalformedFileError,
  leaderEpochCheckpointFormat,
  offsetCheckpointFormat,
  parseCheckpoint,
  parseMetaProperties,
  parsePartitionMetadata,
  readTextFileIfExists,
  type ParseResult,
} from "../storage/index.js";
import { emit, heading, reportProblem, type DumpContext } from "./dump-log-context.js";
import type { Fields } from "./dump-log-format.js";

/** The kinds of small file the dump knows, by the file's name. */
export type TextFileKind =
  "offsetCheckpoint" | "leaderEpochCheckpoint" | "partitionMetadata" | "metaProperties";

/** Parses `text` of `kind` into the lines to print, one list of fields per entry. */
function parseTextFile(kind: TextFileKind, text: string): ParseResult<Fields[]> {
  switch (kind) {
    case "offsetCheckpoint":
      return mapParsed(parseCheckpoint(offsetCheckpointFormat, text), (entries) =>
        entries.map((entry) => [
          ["topic", entry.topic],
          ["partition", entry.partition],
          ["offset", entry.offset],
        ]),
      );
    case "leaderEpochCheckpoint":
      return mapParsed(parseCheckpoint(leaderEpochCheckpointFormat, text), (entries) =>
        entries.map((entry) => [
          ["epoch", entry.epoch],
          ["startOffset", entry.startOffset],
        ]),
      );
    case "partitionMetadata":
      return mapParsed(parsePartitionMetadata(text), (topicId) => [
        [
          ["version", 0],
          ["topicId", topicId],
        ],
      ]);
    case "metaProperties":
      return mapParsed(parseMetaProperties(text), (properties) => [
        [
          ["version", properties.version],
          ["clusterId", properties.clusterId],
          ["nodeId", properties.nodeId],
          ["directoryId", properties.directoryId ?? null],
        ],
      ]);
  }
}

function mapParsed<T, U>(result: ParseResult<T>, map: (value: T) => U): ParseResult<U> {
  return result.kind === "parsed" ? { kind: "parsed", value: map(result.value) } : result;
}

/** Dumps the text file at `path`; resolves to false when it is missing or malformed. */
export async function dumpTextFile(
  context: DumpContext,
  path: string,
  kind: TextFileKind,
): Promise<boolean> {
  heading(context, `Dumping ${path}`, path);
  let text: string | undefined;
  try {
    text = await readTextFileIfExists(context.fileSystem, path);
  } catch (error) {
    if (!(error instanceof MalformedFileError)) throw error;
    reportProblem(context, { file: path, message: error.reason });
    return false;
  }
  if (text === undefined) {
    reportProblem(context, { file: path, message: "no such file" });
    return false;
  }
  const result = parseTextFile(kind, text);
  if (result.kind === "malformed") {
    reportProblem(context, { file: path, message: `malformed: ${result.reason}` });
    return false;
  }
  for (const fields of result.value) emit(context, "entry", fields);
  return true;
}
