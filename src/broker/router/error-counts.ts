/**
 * The error codes a response carries, as Kafka's AbstractResponse.errorCounts gives them to its
 * ErrorsPerSec meters: every `errorCode` field of the response, at the top level and in its
 * topics, partitions or resources, NONE included. Records and other bytes are not walked.
 */

/** Each error code in `body` and how many times it appears. */
export function errorCountsOf(body: object): Map<number, number> {
  const counts = new Map<number, number>();
  countIn(body, counts);
  return counts;
}

function countIn(value: unknown, counts: Map<number, number>): void {
  if (Array.isArray(value)) {
    for (const item of value) countIn(item, counts);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, field] of Object.entries(value)) {
    if (key === "errorCode" && typeof field === "number") {
      counts.set(field, (counts.get(field) ?? 0) + 1);
    } else if (typeof field === "object" && field !== null) countIn(field, counts);
  }
}

/** An object literal, not a Uint8Array, ByteChunks or other class instance. */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
