import { isDecodeError } from "../codec/decode-error.js";
import { ByteReader } from "../codec/reader.js";
import { batchFailure, type BatchResult } from "./batch-error.js";

/**
 * Records inside a batch v2: length varint, attributes int8, timestampDelta varlong, offsetDelta
 * varint, key and value (varint length, -1 is null), then a varint count of headers, each a
 * varint-length UTF-8 key and a varint-length value (-1 is null).
 */

/** One record header. Keys are strings and never null; values may be null. */
export interface RecordHeader {
  readonly key: string;
  readonly value: Uint8Array | null;
}

/** A record as stored, relative to its batch. Byte fields are views of the batch's bytes. */
export interface RawRecord {
  readonly attributes: number;
  readonly timestampDelta: number;
  readonly offsetDelta: number;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers: readonly RecordHeader[];
}

/** The smallest record: a one-byte length and six one-byte fields. */
export const MIN_RECORD_BYTES = 7;
/** The smallest record body after its length: attributes and five one-byte varints. */
export const MIN_RECORD_BODY_BYTES = 6;
/** The smallest header: two one-byte varint lengths. */
const MIN_HEADER_BYTES = 2;

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** What the parser needs from the batch header, for its checks and error reports. */
export interface RecordsContext {
  readonly recordCount: number;
  readonly lastOffsetDelta: number;
}

/**
 * Parses exactly `recordCount` records filling `bytes` (the uncompressed records section).
 * A malformed record, or bytes left after the last one, is invalidRecord; a count that the bytes
 * cannot hold is recordCountMismatch. Nothing is allocated per record before it is read.
 */
export function parseRecords(
  bytes: Uint8Array,
  context: RecordsContext,
): BatchResult<{ readonly records: RawRecord[] }> {
  const { recordCount, lastOffsetDelta } = context;
  const countError = (detail: string) =>
    batchFailure({ kind: "recordCountMismatch", recordCount, lastOffsetDelta, detail });
  if (recordCount < 0) return countError("negative records count");
  if (recordCount * MIN_RECORD_BYTES > bytes.length) {
    return countError(`${recordCount} records cannot fit in ${bytes.length} bytes`);
  }
  const reader = new ByteReader(bytes);
  const records: RawRecord[] = [];
  for (let index = 0; index < recordCount; index++) {
    if (reader.remaining === 0) return countError(`the records end after ${index}`);
    const record = readRecordOrDetail(reader);
    if (typeof record === "string") {
      return batchFailure({ kind: "invalidRecord", recordIndex: index, detail: record });
    }
    records.push(record);
  }
  if (reader.remaining > 0) {
    const detail = `${reader.remaining} bytes after the last record`;
    return batchFailure({ kind: "invalidRecord", recordIndex: recordCount, detail });
  }
  return { ok: true, records };
}

/** Reads one record, or says what is wrong with it; the reader's DecodeErrors become details. */
export function readRecordOrDetail(reader: ByteReader): RawRecord | string {
  try {
    return readRecord(reader);
  } catch (cause) {
    if (isDecodeError(cause)) return cause.message;
    throw cause;
  }
}

function readRecord(reader: ByteReader): RawRecord | string {
  const length = reader.varint();
  if (length < MIN_RECORD_BODY_BYTES || length > reader.remaining) {
    return `record length ${length} with ${reader.remaining} bytes left`;
  }
  const start = reader.position;
  const end = start + length;
  const attributes = reader.int8();
  const timestampDelta = reader.varlong();
  const offsetDelta = reader.varint();
  const key = readNullableBytes(reader, end);
  if (typeof key === "string") return `key: ${key}`;
  const value = readNullableBytes(reader, end);
  if (typeof value === "string") return `value: ${value}`;
  const headers = readHeaders(reader, end);
  if (typeof headers === "string") return headers;
  // Kafka's DefaultRecord.readFrom refuses a record whose fields do not fill its length exactly.
  if (reader.position !== end) {
    return `record length ${length} but its fields take ${reader.position - start} bytes`;
  }
  return { attributes, timestampDelta, offsetDelta, key, value, headers };
}

/** A varint length then bytes; -1 is null and any other negative length is invalid. */
function readNullableBytes(reader: ByteReader, end: number): Uint8Array | null | string {
  const length = reader.varint();
  if (length === -1) return null;
  if (length < 0 || length > end - reader.position) return `length ${length}`;
  return reader.raw(length);
}

function readHeaders(reader: ByteReader, end: number): RecordHeader[] | string {
  const count = reader.varint();
  if (count < 0 || count * MIN_HEADER_BYTES > end - reader.position) {
    return `headers count ${count}`;
  }
  const headers: RecordHeader[] = [];
  for (let index = 0; index < count; index++) {
    const keyLength = reader.varint();
    if (keyLength < 0 || keyLength > end - reader.position) {
      return `header ${index} key length ${keyLength}`;
    }
    const key = utf8.decode(reader.raw(keyLength));
    const value = readNullableBytes(reader, end);
    if (typeof value === "string") return `header ${index} value ${value}`;
    headers.push({ key, value });
  }
  return headers;
}
