/**
 * The cleaner's offset map: for each key seen in the dirty range, the offset of its latest
 * record. Kafka keeps 16-byte MD5 hashes in a fixed array sized by the dedupe buffer; Sluice
 * keeps the key bytes themselves in a Map (no hash collisions, so no record is ever dropped by
 * mistake) and bounds it the same way: once full, the cleaner stops mapping and cleans only up
 * to the last offset it mapped, leaving the rest for the next pass. Pure.
 */
import { assert } from "../../common/index.js";

/** Kafka's memory per entry: a 16-byte hash and an 8-byte offset. */
const BYTES_PER_ENTRY = 24;
/** String.fromCharCode takes its arguments on the stack; keys are converted in pieces. */
const KEY_PIECE_BYTES = 4096;

/** The map key of `key`: one UTF-16 code unit per byte, so distinct keys never collide. */
export function mapKeyOf(key: Uint8Array): string {
  if (key.length <= KEY_PIECE_BYTES) return String.fromCharCode(...key);
  let text = "";
  for (let start = 0; start < key.length; start += KEY_PIECE_BYTES) {
    text += String.fromCharCode(...key.subarray(start, start + KEY_PIECE_BYTES));
  }
  return text;
}

/** A bounded key-to-latest-offset map. */
export class OffsetMap {
  private readonly offsets = new Map<string, number>();
  private keyBytes = 0;
  /** How many entries the map takes before it is full. */
  readonly maxEntries: number;
  /** The largest offset put so far, or -1: records past it are not covered by the map. */
  latestOffset = -1;

  constructor(options: { readonly memoryBytes: number; readonly loadFactor: number }) {
    this.maxEntries = Math.floor((options.memoryBytes / BYTES_PER_ENTRY) * options.loadFactor);
    this.keyBytesMax = options.memoryBytes;
    assert(this.maxEntries >= 1, "the offset map holds at least one entry");
  }

  private readonly keyBytesMax: number;

  get size(): number {
    return this.offsets.size;
  }

  /**
   * Whether `key` can be put: it is already in the map (an update takes no room), or the map has
   * room for another entry and its bytes.
   */
  hasRoomFor(key: Uint8Array): boolean {
    if (this.offsets.has(mapKeyOf(key))) return true;
    return this.offsets.size < this.maxEntries && this.keyBytes + key.length <= this.keyBytesMax;
  }

  /** Records that `key`'s latest record so far is at `offset`; offsets only move forward. */
  put(key: Uint8Array, offset: number): void {
    assert(offset > this.latestOffset, "the offset map is filled in offset order");
    const mapKey = mapKeyOf(key);
    if (!this.offsets.has(mapKey)) {
      assert(this.hasRoomFor(key), "put only when there is room");
      this.keyBytes += key.length;
    }
    this.offsets.set(mapKey, offset);
    this.latestOffset = offset;
  }

  /** Moves latestOffset past records that carry no key (they are covered by the pass too). */
  markScannedThrough(offset: number): void {
    if (offset > this.latestOffset) this.latestOffset = offset;
  }

  /** The latest offset of `key`, or -1 when the map has not seen it. */
  get(key: Uint8Array): number {
    return this.offsets.get(mapKeyOf(key)) ?? -1;
  }

  /** Empties the map for the next pass. */
  clear(): void {
    this.offsets.clear();
    this.keyBytes = 0;
    this.latestOffset = -1;
  }
}
