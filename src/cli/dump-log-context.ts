/** What every part of `sluice dump-log` is given: the disk, the output, and the options. */
import type { FileSystem } from "../ports/index.js";
import { fieldsToObject, formatFields, type Fields } from "./dump-log-format.js";

export interface DumpOptions {
  /** `--print-records` or `--deep-iteration`: decode and print every record of every batch. */
  readonly printRecords: boolean;
  /** `--json`: one JSON object per line instead of Kafka's text lines. */
  readonly json: boolean;
  /** `--max-batch-bytes`: a batch declaring a larger size is reported as corrupt. */
  readonly maxBatchBytes: number;
  /** The most a compressed batch may inflate to before it is reported as corrupt. */
  readonly maxDecompressedBytes: number;
}

export interface DumpContext {
  readonly fileSystem: FileSystem;
  /** Receives each output line, without its line end. */
  readonly write: (line: string) => void;
  readonly options: DumpOptions;
}

/** Writes one entry: Kafka's `name: value` text, or a JSON object with `type` first. */
export function emit(context: DumpContext, type: string, fields: Fields, prefix = ""): void {
  if (context.options.json) {
    context.write(JSON.stringify({ type, ...fieldsToObject(fields) }));
  } else {
    context.write(`${prefix}${formatFields(fields)}`);
  }
}

/** Writes a heading line (text only; JSON output carries the file name in a `file` entry). */
export function heading(context: DumpContext, text: string, file: string): void {
  if (context.options.json) context.write(JSON.stringify({ type: "file", file }));
  else context.write(text);
}

/** Reports damage that ends the dump of a file; the command then exits non-zero. */
export function reportProblem(
  context: DumpContext,
  problem: { readonly file: string; readonly position?: number; readonly message: string },
): void {
  if (context.options.json) {
    context.write(JSON.stringify({ type: "error", ...problem }));
  } else {
    const where = problem.position === undefined ? "" : ` at position ${problem.position}`;
    context.write(`Error in ${problem.file}${where}: ${problem.message}`);
  }
}
