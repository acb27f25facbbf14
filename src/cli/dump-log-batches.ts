/**
 * The batch boundaries of a log file, for checking index entries: one small summary per batch,
 * found by one walk over the file, searched by position and by offset.
 */
import { reportProblem, type DumpContext } from "./dump-log-context.js";
import { scanSegment } from "./dump-log-scan.js";

/** What index checks need to know of one batch. */
export interface BatchSummary {
  readonly position: number;
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly maxTimestamp: number;
}

/** The sound batches of a log file, in file order (positions and offsets increase). */
export interface LogBatches {
  readonly batches: readonly BatchSummary[];
}

/** Walks the log at `path`; damage is reported, and the batches before it are kept. */
export async function readLogBatches(context: DumpContext, path: string): Promise<LogBatches> {
  const batches: BatchSummary[] = [];
  const file = await context.fileSystem.open(path, { readOnly: true });
  try {
    for await (const entry of scanSegment(file, { maxBatchBytes: context.options.maxBatchBytes })) {
      if (entry.kind === "stop") {
        const message = `the sibling log stops at a ${entry.cause} batch: ${entry.reason}`;
        reportProblem(context, { file: path, position: entry.position, message });
        break;
      }
      const { header, position } = entry;
      batches.push({
        position,
        baseOffset: header.baseOffset,
        lastOffset: header.lastOffset,
        maxTimestamp: header.maxTimestamp,
      });
    }
  } finally {
    await file.close();
  }
  return { batches };
}

/** The first index whose batch satisfies `isAtOrAfter`, which must be monotone over batches. */
function firstIndex(log: LogBatches, isAtOrAfter: (batch: BatchSummary) => boolean): number {
  let low = 0;
  let high = log.batches.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isAtOrAfter(log.batches[middle] as BatchSummary)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The batch starting exactly at `position`, if any. */
export function findBatchAt(log: LogBatches, position: number): BatchSummary | undefined {
  const batch = log.batches[firstIndex(log, (candidate) => candidate.position >= position)];
  return batch?.position === position ? batch : undefined;
}

/** The batch whose offset range holds `offset`, if any. */
export function findBatchHolding(log: LogBatches, offset: number): BatchSummary | undefined {
  const batch = log.batches[firstIndex(log, (candidate) => candidate.lastOffset >= offset)];
  return batch !== undefined && batch.baseOffset <= offset ? batch : undefined;
}
