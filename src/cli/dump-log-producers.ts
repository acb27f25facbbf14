/**
 * `sluice dump-log` for a log's producer files, with kafka-dump-log.sh's lines: a `.txnindex`
 * file's aborted transactions (`version: 0 producerId: ... lastStableOffset: ...`) and a
 * `.snapshot` file's producers (`producerId: ... producerEpoch: ...`, then the last batch's
 * sequences and offsets when it has one).
 */
import { readFileIfExists } from "../storage/index.js";
import { decodeProducerSnapshot, decodeTransactionIndex } from "../storage/index.js";
import { emit, heading, reportProblem, type DumpContext } from "./dump-log-context.js";
import type { Fields } from "./dump-log-format.js";

/** Dumps the `.txnindex` file at `path`; resolves to false when its tail is not an entry. */
export async function dumpTransactionIndex(context: DumpContext, path: string): Promise<boolean> {
  const bytes = await headedRead(context, path);
  if (bytes === undefined) return false;
  const { entries, unreadBytes } = decodeTransactionIndex(bytes);
  for (const entry of entries) {
    emit(context, "abortedTransaction", [
      ["version", 0],
      ["producerId", entry.producerId],
      ["firstOffset", entry.firstOffset],
      ["lastOffset", entry.lastOffset],
      ["lastStableOffset", entry.lastStableOffset],
    ]);
  }
  if (unreadBytes === 0) return true;
  const position = bytes.length - unreadBytes;
  const message = `${unreadBytes} bytes that are not a version 0 entry`;
  reportProblem(context, { file: path, position, message });
  return false;
}

/** Dumps the producer state `.snapshot` file at `path`; false when it does not read back. */
export async function dumpProducerSnapshot(context: DumpContext, path: string): Promise<boolean> {
  const bytes = await headedRead(context, path);
  if (bytes === undefined) return false;
  const decoded = decodeProducerSnapshot(bytes);
  if (!decoded.ok) {
    reportProblem(context, { file: path, message: `not a producer snapshot: ${decoded.reason}` });
    return false;
  }
  for (const { producerId, entry } of decoded.producers) {
    const txnFirstOffset = entry.currentTxnFirstOffset;
    const fields: [string, string | number][] = [
      ["producerId", producerId],
      ["producerEpoch", entry.producerEpoch],
      ["coordinatorEpoch", entry.coordinatorEpoch ?? -1],
      // Kafka's tool prints the Java OptionalLong.
      [
        "currentTxnFirstOffset",
        txnFirstOffset === undefined ? "OptionalLong.empty" : `OptionalLong[${txnFirstOffset}]`,
      ],
      ["lastTimestamp", entry.lastTimestamp],
    ];
    const last = entry.batches.at(-1);
    if (last !== undefined) {
      fields.push(
        ["firstSequence", last.firstSequence],
        ["lastSequence", last.lastSequence],
        ["lastOffset", last.lastOffset],
        ["offsetDelta", last.lastOffset - last.firstOffset],
        ["timestamp", last.timestamp],
      );
    }
    emit(context, "producer", fields satisfies Fields);
  }
  return true;
}

/** Writes the file's heading and reads it whole; undefined, reported, when it is missing. */
async function headedRead(context: DumpContext, path: string): Promise<Uint8Array | undefined> {
  heading(context, `Dumping ${path}`, path);
  const bytes = await readFileIfExists(context.fileSystem, path);
  if (bytes === undefined) reportProblem(context, { file: path, message: "no such file" });
  return bytes;
}
