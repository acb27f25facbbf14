/**
 * The `GET /v1/messages` route, the dashboard's message browser: the records of one partition
 * from an offset, from a timestamp (the first offset whose timestamp is at or after it, as
 * ListOffsets finds it) or from the log start, at most `limit` records (100) and a bounded
 * number of bytes read, each with its key, headers and value rendered as text, JSON or hex
 * (value-rendering.ts). The node reads them from a replica it hosts, as a consumer would, up
 * to the high watermark; a partition it does not host is refused with 404. The route, which
 * waits for the read, is in message-browser.driver.ts.
 *
 * Query: `topic` (required), `partition` (0), `offset` or `timestamp` (milliseconds), `limit`
 * (20), `format` (`text`, `json` or `hex`; `text`).
 */
import { renderBytes, VALUE_FORMATS, type ValueFormat } from "./value-rendering.js";

/** Where the browsing starts. */
export type BrowseStart =
  | { readonly kind: "offset"; readonly offset: number }
  | { readonly kind: "timestamp"; readonly timestamp: number }
  | { readonly kind: "earliest" };

export interface BrowseRequest {
  readonly topic: string;
  readonly partition: number;
  readonly start: BrowseStart;
  readonly maxRecords: number;
  /** Bytes of batches read at most (the first batch is read whole, as a fetch does). */
  readonly maxBytes: number;
}

export interface BrowsedRecord {
  readonly offset: number;
  readonly timestamp: number;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers: readonly { readonly key: string; readonly value: Uint8Array | null }[];
}

export type BrowseResult =
  | {
      readonly kind: "records";
      /** The offset the read started at (where the timestamp led, for a timestamp). */
      readonly startOffset: number;
      readonly logStartOffset: number;
      readonly highWatermark: number;
      readonly records: readonly BrowsedRecord[];
    }
  | { readonly kind: "refused"; readonly status: 400 | 404 | 503; readonly message: string };

/** Reads records of a partition this node hosts, through its replica manager. */
export interface MessageSource {
  browse(request: BrowseRequest): Promise<BrowseResult>;
}

export const BROWSE_RECORDS_MAX = 100;
const BROWSE_RECORDS_DEFAULT = 20;
/** Bytes of batches one browse reads. */
export const BROWSE_BYTES_MAX = 1024 * 1024;
/** Bytes of each key, value and header rendered. */
export const BROWSE_SHOWN_BYTES_MAX = 4096;
const TOPIC_NAME_LENGTH_MAX = 249;

type Parsed =
  | { readonly kind: "ok"; readonly request: BrowseRequest; readonly format: ValueFormat }
  | { readonly kind: "bad"; readonly message: string };

/** A non-negative safe integer from a query parameter, or undefined when it is not one. */
function wholeNumber(text: string): number | undefined {
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** The browse the query asks for, or what is wrong with it. */
export function parseBrowseQuery(query: Readonly<Record<string, string>>): Parsed {
  const bad = (message: string): Parsed => ({ kind: "bad", message });
  const topic = query["topic"] ?? "";
  if (topic.length === 0) return bad("topic is required");
  if (topic.length > TOPIC_NAME_LENGTH_MAX) return bad("topic is longer than a topic name can be");
  const partition = wholeNumber(query["partition"] ?? "0");
  if (partition === undefined || partition > 2 ** 31 - 1) {
    return bad("partition must be a partition index");
  }
  const limit = wholeNumber(query["limit"] ?? String(BROWSE_RECORDS_DEFAULT));
  if (limit === undefined || limit < 1 || limit > BROWSE_RECORDS_MAX) {
    return bad(`limit must be from 1 to ${BROWSE_RECORDS_MAX}`);
  }
  const format = VALUE_FORMATS.find((each) => each === (query["format"] ?? "text"));
  if (format === undefined) return bad(`format must be one of ${VALUE_FORMATS.join(", ")}`);
  const start = startOf(query);
  if (typeof start === "string") return bad(start);
  const request = { topic, partition, start, maxRecords: limit, maxBytes: BROWSE_BYTES_MAX };
  return { kind: "ok", request, format };
}

function startOf(query: Readonly<Record<string, string>>): BrowseStart | string {
  const offsetText = query["offset"] ?? "";
  const timestampText = query["timestamp"] ?? "";
  if (offsetText !== "" && timestampText !== "") return "give an offset or a timestamp, not both";
  if (offsetText !== "") {
    const offset = wholeNumber(offsetText);
    return offset === undefined ? "offset must be a whole number" : { kind: "offset", offset };
  }
  if (timestampText !== "") {
    const timestamp = wholeNumber(timestampText);
    if (timestamp === undefined) return "timestamp must be milliseconds since the epoch";
    return { kind: "timestamp", timestamp };
  }
  return { kind: "earliest" };
}

/** The JSON the page reads for `result`, fields rendered in `format`. */
export function browseJson(
  request: BrowseRequest,
  result: Extract<BrowseResult, { kind: "records" }>,
  format: ValueFormat,
): unknown {
  const options = { format, shownBytesMax: BROWSE_SHOWN_BYTES_MAX };
  const last = result.records[result.records.length - 1];
  return {
    topic: request.topic,
    partition: request.partition,
    format,
    startOffset: result.startOffset,
    logStartOffset: result.logStartOffset,
    highWatermark: result.highWatermark,
    nextOffset: last === undefined ? result.startOffset : last.offset + 1,
    records: result.records.map((record) => ({
      offset: record.offset,
      timestamp: record.timestamp,
      key: renderBytes(record.key, options),
      value: renderBytes(record.value, options),
      headers: record.headers.map((header) => ({
        key: header.key,
        value: renderBytes(header.value, options),
      })),
    })),
  };
}
