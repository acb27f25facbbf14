/**
 * How `sluice dump-log` shows batches and records: Kafka's kafka-dump-log.sh lines
 * (`baseOffset: 0 lastOffset: 2 count: 3 ...`, records prefixed with `| `), or one JSON object per
 * line. Pure: the callers read the files.
 */
import {
  decodeControlRecord,
  type DecodedRecord,
  type RecordBatchHeader,
} from "../protocol/index.js";

/** Field names and values in the order Kafka's tool prints them. */
export type Fields = ReadonlyArray<readonly [string, string | number | boolean | null]>;

/** `name: value` pairs joined by spaces, as Kafka's tool prints a batch or a record. */
export function formatFields(fields: Fields): string {
  return fields.map(([name, value]) => `${name}: ${value === null ? "null" : value}`).join(" ");
}

export function fieldsToObject(fields: Fields): Record<string, unknown> {
  return Object.fromEntries(fields);
}

const INT32_MAX = 0x7fffffff;

/**
 * The sequence number of the batch's last record, as Kafka's DefaultRecordBatch.lastSequence:
 * sequences wrap from Int32.MAX_VALUE to zero, and a batch without a sequence has none.
 */
export function lastSequenceOf(header: RecordBatchHeader): number {
  return addToSequence(header.baseSequence, header.lastOffsetDelta);
}

/** `sequence` advanced by `increment`, wrapping past Int32.MAX_VALUE; no sequence stays none. */
function addToSequence(sequence: number, increment: number): number {
  if (sequence < 0) return sequence;
  if (sequence > INT32_MAX - increment) return increment - (INT32_MAX - sequence) - 1;
  return sequence + increment;
}

/** Kafka's name for a timestamp type, which its tool uses as the label of the timestamp. */
function timestampLabel(header: RecordBatchHeader): string {
  return header.timestampType === "createTime" ? "CreateTime" : "LogAppendTime";
}

/** The fields of one batch; `isValid` says whether its CRC-32C matched. */
export function batchFields(header: RecordBatchHeader, position: number, isValid: boolean): Fields {
  return [
    ["baseOffset", header.baseOffset],
    ["lastOffset", header.lastOffset],
    ["count", header.recordCount],
    ["baseSequence", header.baseSequence],
    ["lastSequence", lastSequenceOf(header)],
    ["producerId", header.producerId],
    ["producerEpoch", header.producerEpoch],
    ["partitionLeaderEpoch", header.partitionLeaderEpoch],
    ["isTransactional", header.isTransactional],
    ["isControl", header.isControl],
    ["deleteHorizonMs", header.hasDeleteHorizon ? header.deleteHorizonMs : null],
    ["position", position],
    [timestampLabel(header), header.maxTimestamp],
    ["size", header.sizeInBytes],
    ["magic", header.magic],
    ["compresscodec", header.compression ?? `unknown(${header.attributes & 0x07})`],
    ["crc", header.crc],
    ["isvalid", isValid],
  ];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A key as text when it is valid UTF-8 without control characters, otherwise as hex with a
 * `0x` prefix, so that binary keys never garble a terminal.
 */
export function keyText(key: Uint8Array): string {
  try {
    const text = utf8.decode(key);
    // The range covers C0 controls, DEL and C1 controls.
    if (!/[\u0000-\u001f\u007f-\u009f]/.test(text)) return text;
  } catch {
    // Invalid UTF-8 is shown as hex below.
  }
  return `0x${Array.from(key, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export function recordFields(header: RecordBatchHeader, record: DecodedRecord): Fields {
  const fields: Array<readonly [string, string | number | boolean | null]> = [
    ["offset", record.offset],
    [timestampLabel(header), record.timestamp],
    ["keySize", record.key === null ? -1 : record.key.length],
    ["key", record.key === null ? null : keyText(record.key)],
    ["valueSize", record.value === null ? -1 : record.value.length],
    ["sequence", recordSequence(header, record)],
    ["headers", record.headers.length],
  ];
  if (header.isControl) fields.push(...controlFields(record));
  return fields;
}

/** A record's sequence: the batch's base sequence plus its offset delta, wrapping as Kafka's. */
function recordSequence(header: RecordBatchHeader, record: DecodedRecord): number {
  return addToSequence(header.baseSequence, record.offset - header.baseOffset);
}

/** What a control record says: the marker of a transaction, or the KRaft control type. */
function controlFields(record: DecodedRecord): Fields {
  const decoded = decodeControlRecord(record);
  if (!decoded.ok) return [["controlError", decoded.detail]];
  const { control } = decoded;
  switch (control.type) {
    case "abort":
    case "commit":
      return [
        ["endTxnMarker", control.type.toUpperCase()],
        ["coordinatorEpoch", control.coordinatorEpoch],
      ];
    case "unknown":
      return [["controlType", `unknown(${control.typeId})`]];
    default:
      return [["controlType", control.type]];
  }
}
