/**
 * `sluice dump-log` for a segment's `.log` file: each batch's header, and with `--print-records`
 * each record, stopping with the position and the reason at the first torn or corrupt batch.
 */
import { basename } from "../common/index.js";
import { parseSegmentFileName } from "../storage/index.js";
import { decodeRecords, describeBatchError, type RecordBatchHeader } from "../protocol/index.js";
import { emit, heading, reportProblem, type DumpContext } from "./dump-log-context.js";
import { batchFields, recordFields } from "./dump-log-format.js";
import { scanSegment } from "./dump-log-scan.js";

/** Dumps the log file at `path`; resolves to false when the file is torn or corrupt. */
export async function dumpLogSegment(context: DumpContext, path: string): Promise<boolean> {
  heading(context, `Dumping ${path}`, path);
  const name = parseSegmentFileName(basename(path));
  if (name !== undefined && !context.options.json) {
    context.write(`Log starting offset: ${name.baseOffset}`);
  }
  const file = await context.fileSystem.open(path, { readOnly: true });
  try {
    const scanOptions = { maxBatchBytes: context.options.maxBatchBytes };
    for await (const entry of scanSegment(file, scanOptions)) {
      if (entry.kind === "stop") {
        if (entry.header !== undefined)
          emit(context, "batch", batchFields(entry.header, entry.position, false));
        const what = entry.cause === "torn" ? "torn write" : "corrupt batch";
        reportProblem(context, {
          file: path,
          position: entry.position,
          message: `${what}: ${entry.reason}`,
        });
        return false;
      }
      if (!context.options.printRecords) {
        emit(context, "batch", batchFields(entry.header, entry.position, true));
        continue;
      }
      if (!dumpBatchWithRecords(context, path, entry.position, entry.bytes)) return false;
    }
    return true;
  } finally {
    await file.close();
  }
}

/** Prints a batch and its records; false when the records cannot be decoded. */
function dumpBatchWithRecords(
  context: DumpContext,
  path: string,
  position: number,
  bytes: Uint8Array,
): boolean {
  const decoded = decodeRecords(bytes, {
    maxDecompressedBytes: context.options.maxDecompressedBytes,
  });
  if (!decoded.ok) {
    const message = `records cannot be read: ${describeBatchError(decoded.error)}`;
    reportProblem(context, { file: path, position, message });
    return false;
  }
  const header: RecordBatchHeader = decoded.header;
  if (context.options.json) {
    const fields = batchFields(header, position, true);
    const records = decoded.records.map((record) =>
      Object.fromEntries(recordFields(header, record)),
    );
    context.write(JSON.stringify({ type: "batch", ...Object.fromEntries(fields), records }));
    return true;
  }
  emit(context, "batch", batchFields(header, position, true));
  for (const record of decoded.records) emit(context, "record", recordFields(header, record), "| ");
  return true;
}
