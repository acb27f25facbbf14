/**
 * The allocation-free walk of an uncompressed records section: every record's length, fields,
 * key, value and headers are stepped over by their varint lengths, without building a reader,
 * a record object or a view per record. It is the produce path's fast check; it accepts a
 * section only where the full record parser (`forEachRecord`) would, and says "not sure" for
 * anything else, which the caller then hands to that parser for the exact verdict and detail.
 */

/** Where the last varint read by `readVarint`/`readVarlong` ended, or -1 if it was not one. */
let nextPosition = 0;

/**
 * The zigzag varint of at most 32 bits at `position`, not reading at or past `end`; sets
 * nextPosition, which is -1 when the bytes are not such a varint.
 */
function readVarint(bytes: Uint8Array, position: number, end: number): number {
  let raw = 0;
  let at = position;
  for (let shift = 0; shift < 28; shift += 7) {
    if (at >= end) return fail();
    const byte = bytes[at++] as number;
    raw |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) {
      nextPosition = at;
      return (raw >>> 1) ^ -(raw & 1);
    }
  }
  if (at >= end) return fail();
  const byte = bytes[at++] as number;
  if ((byte & 0x80) !== 0 || byte > 0x0f) return fail();
  nextPosition = at;
  // The same zigzag on the whole 32 bits: raw is below 2^32, so >>> and ^ keep its sign rules.
  const whole = (raw | (byte << 28)) >>> 0;
  return (whole >>> 1) ^ -(whole & 1);
}

/** A zigzag varlong of at most seven bytes (so a safe integer); longer ones are "not sure". */
function readVarlong(bytes: Uint8Array, position: number, end: number): number {
  let raw = 0;
  let scale = 1;
  let at = position;
  for (let index = 0; index < 7; index++) {
    if (at >= end) return fail();
    const byte = bytes[at++] as number;
    raw += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) {
      nextPosition = at;
      return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
    }
    scale *= 128;
  }
  return fail();
}

function fail(): number {
  nextPosition = -1;
  return 0;
}

/** Steps over a varint length and that many bytes (-1 is null); the position after, or -1. */
function skipNullableBytes(bytes: Uint8Array, position: number, end: number): number {
  const length = readVarint(bytes, position, end);
  const at = nextPosition;
  if (at < 0) return -1;
  if (length === -1) return at;
  if (length < 0 || length > end - at) return -1;
  return at + length;
}

/** Steps over a record's headers; the position after them, or -1. */
function skipHeaders(bytes: Uint8Array, position: number, end: number): number {
  const count = readVarint(bytes, position, end);
  let at = nextPosition;
  if (at < 0 || count < 0 || count * 2 > end - at) return -1;
  for (let index = 0; index < count; index++) {
    const keyLength = readVarint(bytes, at, end);
    at = nextPosition;
    if (at < 0 || keyLength < 0 || keyLength > end - at) return -1;
    at = skipNullableBytes(bytes, at + keyLength, end);
    if (at < 0) return -1;
  }
  return at;
}

/** What the walk checks of each record: its deltas, against the batch's rules. */
export interface RecordDeltasCheck {
  /** False if the record must be refused (the caller then finds out why). */
  accepts(offsetDelta: number, timestampDelta: number, index: number): boolean;
}

/** The smallest record body after its length: attributes and five one-byte varints. */
const MIN_BODY_BYTES = 6;
/** As RECORD_BYTES_MAX in record-stream.ts: a longer record is refused there, not here. */
const RECORD_BYTES_LIMIT = 64 * 1024 * 1024;

/**
 * True if `bytes` is exactly `recordCount` well-formed records whose deltas `check` accepts;
 * false if not, or if the walk cannot tell (a varlong over seven bytes), without saying why.
 */
export function walkRecords(
  bytes: Uint8Array,
  recordCount: number,
  check: RecordDeltasCheck,
): boolean {
  if (recordCount < 0) return false;
  const total = bytes.length;
  let at = 0;
  for (let index = 0; index < recordCount; index++) {
    const length = readVarint(bytes, at, total);
    const start = nextPosition;
    if (start < 0 || length < MIN_BODY_BYTES || length > total - start) return false;
    if (length > RECORD_BYTES_LIMIT) return false;
    const end = start + length;
    // The attributes byte, which the parser reads without a rule.
    const timestampDelta = readVarlong(bytes, start + 1, end);
    if (nextPosition < 0) return false;
    const offsetDelta = readVarint(bytes, nextPosition, end);
    if (nextPosition < 0) return false;
    let position = skipNullableBytes(bytes, nextPosition, end);
    if (position >= 0) position = skipNullableBytes(bytes, position, end);
    if (position >= 0) position = skipHeaders(bytes, position, end);
    if (position !== end) return false;
    if (!check.accepts(offsetDelta, timestampDelta, index)) return false;
    at = end;
  }
  return at === total;
}
