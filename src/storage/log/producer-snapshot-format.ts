/**
 * The bytes of a producer state snapshot, Kafka's `<offset>.snapshot` file (ProducerSnapshot
 * version 1): int16 version, uint32 CRC-32C of everything after it, then an int32 count of
 * 46-byte producer entries (producer id int64, epoch int16, last sequence int32, last offset
 * int64, offset delta int32, timestamp int64, coordinator epoch int32, first offset of the
 * ongoing transaction int64 or -1). A snapshot keeps each producer's last batch only, as
 * Kafka's does: after a load, a retry of an older retained batch is checked by sequence.
 */
import { crc32c } from "../../protocol/index.js";
import type { BatchMetadata, ProducerEntry } from "../producer-state/index.js";

const VERSION = 1;
const CRC_OFFSET = 2;
const ENTRIES_OFFSET = 6;
const ENTRY_BYTES = 46;
const INT32_MAX = 0x7fffffff;

/** One producer of a snapshot, with its id. */
export interface SnapshotProducer {
  readonly producerId: number;
  readonly entry: ProducerEntry;
}

export function encodeProducerSnapshot(producers: readonly SnapshotProducer[]): Uint8Array {
  const bytes = new Uint8Array(ENTRIES_OFFSET + 4 + producers.length * ENTRY_BYTES);
  const view = new DataView(bytes.buffer);
  view.setInt16(0, VERSION);
  view.setInt32(ENTRIES_OFFSET, producers.length);
  let at = ENTRIES_OFFSET + 4;
  for (const { producerId, entry } of producers) {
    const last = entry.batches.at(-1);
    view.setBigInt64(at, BigInt(producerId));
    view.setInt16(at + 8, entry.producerEpoch);
    view.setInt32(at + 10, last?.lastSequence ?? -1);
    view.setBigInt64(at + 14, BigInt(last?.lastOffset ?? -1));
    view.setInt32(at + 22, last === undefined ? 0 : last.lastOffset - last.firstOffset);
    view.setBigInt64(at + 26, BigInt(entry.lastTimestamp));
    view.setInt32(at + 34, entry.coordinatorEpoch ?? -1);
    view.setBigInt64(at + 38, BigInt(entry.currentTxnFirstOffset ?? -1));
    at += ENTRY_BYTES;
  }
  view.setUint32(CRC_OFFSET, crc32c(bytes.subarray(ENTRIES_OFFSET)));
  return bytes;
}

/** The producers of a snapshot file's bytes, or why they cannot be read (Kafka then drops it). */
export function decodeProducerSnapshot(
  bytes: Uint8Array,
): { readonly ok: true; readonly producers: SnapshotProducer[] } | { ok: false; reason: string } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < ENTRIES_OFFSET + 4) return { ok: false, reason: "shorter than its header" };
  const version = view.getInt16(0);
  if (version !== VERSION) return { ok: false, reason: `unknown file version ${version}` };
  const count = view.getInt32(ENTRIES_OFFSET);
  if (count < 0 || bytes.length !== ENTRIES_OFFSET + 4 + count * ENTRY_BYTES) {
    return { ok: false, reason: `${bytes.length} bytes do not hold ${count} entries` };
  }
  if (view.getUint32(CRC_OFFSET) !== crc32c(bytes.subarray(ENTRIES_OFFSET))) {
    return { ok: false, reason: "the CRC is no longer valid" };
  }
  const producers: SnapshotProducer[] = [];
  for (let at = ENTRIES_OFFSET + 4; at < bytes.length; at += ENTRY_BYTES) {
    const producerId = Number(view.getBigInt64(at));
    const lastSequence = view.getInt32(at + 10);
    const lastOffset = Number(view.getBigInt64(at + 14));
    const offsetDelta = view.getInt32(at + 22);
    const timestamp = Number(view.getBigInt64(at + 26));
    const coordinatorEpoch = view.getInt32(at + 34);
    const currentTxnFirstOffset = Number(view.getBigInt64(at + 38));
    const batch: BatchMetadata = {
      firstSequence: decrementSequence(lastSequence, offsetDelta),
      lastSequence,
      firstOffset: lastOffset - offsetDelta,
      lastOffset,
      timestamp,
    };
    const entry: ProducerEntry = {
      producerEpoch: view.getInt16(at + 8),
      batches: lastOffset >= 0 ? [batch] : [],
      lastTimestamp: timestamp,
      ...(currentTxnFirstOffset >= 0 ? { currentTxnFirstOffset } : {}),
      ...(coordinatorEpoch >= 0 ? { coordinatorEpoch } : {}),
    };
    producers.push({ producerId, entry });
  }
  return { ok: true, producers };
}

/** `sequence - delta`, wrapping below 0 to 2^31 - 1 as Kafka's sequences do. */
function decrementSequence(sequence: number, delta: number): number {
  return sequence - delta < 0 ? INT32_MAX - (delta - sequence) + 1 : sequence - delta;
}
