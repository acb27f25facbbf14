import { assert } from "../../src/common/index.js";

/** A growable byte array: the contents of one simulated file. */
export class ByteBuffer {
  private bytes: Uint8Array;
  private used: number;

  constructor(initial: Uint8Array = new Uint8Array(0)) {
    this.bytes = initial.slice();
    this.used = initial.length;
  }

  get length(): number {
    return this.used;
  }

  /** Writes `data` at `position`, filling any gap before it with zeros, as a sparse file reads. */
  writeAt(position: number, data: Uint8Array): void {
    assert(Number.isSafeInteger(position) && position >= 0, "a write position is >= 0");
    const end = position + data.length;
    this.reserve(end);
    if (position > this.used) this.bytes.fill(0, this.used, position);
    this.bytes.set(data, position);
    this.used = Math.max(this.used, end);
  }

  /** Cuts or extends (with zeros) to `length`. */
  truncate(length: number): void {
    assert(Number.isSafeInteger(length) && length >= 0, "a length is >= 0");
    this.reserve(length);
    if (length > this.used) this.bytes.fill(0, this.used, length);
    this.used = length;
  }

  /** Copies up to `length` bytes at `position` into `target`; returns how many were copied. */
  readInto(target: Uint8Array, targetOffset: number, length: number, position: number): number {
    const count = Math.max(0, Math.min(length, this.used - position));
    target.set(this.bytes.subarray(position, position + count), targetOffset);
    return count;
  }

  /** A copy of the contents. */
  snapshot(): Uint8Array {
    return this.bytes.slice(0, this.used);
  }

  private reserve(capacity: number): void {
    if (capacity <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(capacity, this.bytes.length * 2, 64));
    grown.set(this.bytes.subarray(0, this.used));
    this.bytes = grown;
  }
}
