/**
 * The whole record batches at the start of fetched bytes. A leader may end a Fetch response with
 * part of a batch (Kafka's leaders do when a batch crosses the size limit); a follower appends
 * the whole ones and fetches the rest next time, as Kafka's follower iterates only whole batches.
 */

/** Bytes before a batch's length field: the base offset (int64). */
const LENGTH_OFFSET = 8;
/** The base offset and the length field, which the length does not count. */
const LOG_OVERHEAD = 12;

/**
 * The prefix of `records` made of whole batches, as their length fields say. A length that
 * cannot be a batch's is left in, so that the log's validation refuses it as corrupt rather
 * than the follower fetching the same bytes forever.
 */
export function wholeBatchesPrefix(records: Uint8Array): Uint8Array {
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  let end = 0;
  while (end < records.length) {
    if (end + LOG_OVERHEAD > records.length) break;
    const batchLength = view.getInt32(end + LENGTH_OFFSET);
    if (batchLength <= 0) return records;
    const next = end + LOG_OVERHEAD + batchLength;
    if (next > records.length) break;
    end = next;
  }
  return end === records.length ? records : records.subarray(0, end);
}
