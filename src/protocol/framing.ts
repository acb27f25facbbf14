import { assert } from "../common/index.js";

/**
 * Kafka's framing: every request and response is an int32 size followed by that many bytes. The
 * decoder turns an arbitrary split of a byte stream back into frames; the encoder prefixes a size.
 */

/** The default frame size limit, as Kafka's `socket.request.max.bytes` (100 MiB). */
export const FRAME_BYTES_MAX_DEFAULT = 104_857_600;

const INT32_MAX = 0x7fffffff;
const SIZE_PREFIX_BYTES = 4;

/** Why a stream of frames cannot go on; the caller closes the connection. */
export type FrameError =
  | { readonly kind: "negativeSize"; readonly size: number }
  | { readonly kind: "tooLarge"; readonly size: number; readonly frameBytesMax: number };

/**
 * The frames completed by one push. `failed` means the stream is unusable from the error on: the
 * frames before it are still whole and may be served, nothing after it can be.
 */
export type FramePushResult =
  | { readonly kind: "frames"; readonly frames: Uint8Array[] }
  | { readonly kind: "failed"; readonly frames: Uint8Array[]; readonly error: FrameError };

export interface FrameDecoderOptions {
  /** The largest frame accepted, without its size prefix (`socket.request.max.bytes`). */
  readonly frameBytesMax?: number;
}

/**
 * Splits a byte stream into frames. Fed chunks of any size, it returns each frame as a view of the
 * chunk it lies in, and copies only a frame that spans chunks. A stated size is checked against the
 * limit before any byte of the frame is stored, and memory grows only with bytes actually received,
 * so a hostile size prefix costs nothing, unless the caller has granted that size and asks for the
 * frame's buffer at once (`allocatePartialFrame`).
 */
export class FrameDecoder {
  readonly frameBytesMax: number;
  /** Received bytes not yet returned as frames: `pending[head]` onwards. */
  private pending: Uint8Array[] = [];
  private head = 0;
  private pendingBytes = 0;
  private error: FrameError | undefined;
  /** The frame being received into a buffer of its whole size (see `allocatePartialFrame`). */
  private filling: { readonly frame: Uint8Array; filled: number } | undefined;

  constructor(options: FrameDecoderOptions = {}) {
    this.frameBytesMax = options.frameBytesMax ?? FRAME_BYTES_MAX_DEFAULT;
    assert(Number.isInteger(this.frameBytesMax), "frameBytesMax must be an integer");
    assert(this.frameBytesMax >= 0 && this.frameBytesMax <= INT32_MAX, "frameBytesMax in range");
  }

  /** Bytes received but not yet part of a returned frame (the partial frame at the end). */
  get bufferedBytes(): number {
    return this.pendingBytes + (this.filling?.filled ?? 0);
  }

  /**
   * The size of the frame being received, once its size prefix is in and before its last byte
   * is: what a memory pool is asked for before the body is read (Kafka's NetworkReceive).
   */
  get partialFrameSize(): number | undefined {
    if (this.filling !== undefined) return this.filling.frame.length;
    if (this.error !== undefined || this.pendingBytes < SIZE_PREFIX_BYTES) return undefined;
    return this.peekSize();
  }

  /** True while the frame being received has its buffer (`allocatePartialFrame`). */
  get isPartialFrameAllocated(): boolean {
    return this.filling !== undefined;
  }

  /**
   * Gives the frame being received a buffer of its whole size now, as Kafka allocates it from its
   * memory pool, and copies its bytes there as they arrive: memory is then the frame's size rather
   * than its chunks and, at the end, their copy. For a caller that has granted the size (a
   * bounded pool); otherwise a size prefix alone would cost its stated size.
   */
  allocatePartialFrame(): void {
    const size = this.partialFrameSize;
    assert(size !== undefined && this.filling === undefined, "a partial frame to allocate");
    this.skip(SIZE_PREFIX_BYTES);
    const filled = this.pendingBytes;
    // Every byte is written before the frame is returned, so it need not be zeroed first.
    const frame = Buffer.allocUnsafe(size);
    let offset = 0;
    for (let index = this.head; index < this.pending.length; index++) {
      const chunk = this.pending[index] as Uint8Array;
      frame.set(chunk, offset);
      offset += chunk.length;
    }
    this.pending = [];
    this.head = 0;
    this.pendingBytes = 0;
    this.filling = { frame, filled };
  }

  /** Adds `chunk` (which must not change afterwards) and returns every frame it completes. */
  push(chunk: Uint8Array): FramePushResult {
    const frames: Uint8Array[] = [];
    if (this.error !== undefined) return { kind: "failed", frames, error: this.error };
    const rest = this.fill(chunk, frames);
    if (rest.length > 0) {
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    while (this.pendingBytes >= SIZE_PREFIX_BYTES) {
      const size = this.peekSize();
      const error = this.checkSize(size);
      if (error !== undefined) {
        this.fail(error);
        return { kind: "failed", frames, error };
      }
      if (this.pendingBytes < SIZE_PREFIX_BYTES + size) break;
      this.skip(SIZE_PREFIX_BYTES);
      frames.push(this.take(size));
    }
    return { kind: "frames", frames };
  }

  /** Copies the start of `chunk` into the frame being filled; returns what is left of it. */
  private fill(chunk: Uint8Array, frames: Uint8Array[]): Uint8Array {
    const filling = this.filling;
    if (filling === undefined) return chunk;
    const used = Math.min(chunk.length, filling.frame.length - filling.filled);
    filling.frame.set(chunk.subarray(0, used), filling.filled);
    filling.filled += used;
    if (filling.filled < filling.frame.length) return chunk.subarray(chunk.length);
    frames.push(filling.frame);
    this.filling = undefined;
    return chunk.subarray(used);
  }

  private checkSize(size: number): FrameError | undefined {
    if (size < 0) return { kind: "negativeSize", size };
    if (size > this.frameBytesMax) {
      return { kind: "tooLarge", size, frameBytesMax: this.frameBytesMax };
    }
    return undefined;
  }

  private fail(error: FrameError): void {
    this.error = error;
    // Drop what was buffered: a failed stream is never read again.
    this.filling = undefined;
    this.pending = [];
    this.head = 0;
    this.pendingBytes = 0;
  }

  /** The int32 size at the start of the pending bytes, which may straddle chunks. */
  private peekSize(): number {
    let value = 0;
    let index = this.head;
    let offset = 0;
    for (let byteIndex = 0; byteIndex < SIZE_PREFIX_BYTES; byteIndex++) {
      let chunk = this.pending[index] as Uint8Array;
      while (offset >= chunk.length) {
        index++;
        offset = 0;
        chunk = this.pending[index] as Uint8Array;
      }
      value = value * 256 + (chunk[offset] as number);
      offset++;
    }
    // The four bytes were read as unsigned; reinterpret them as a signed int32.
    return value | 0;
  }

  /** Drops `count` pending bytes (the size prefix). */
  private skip(count: number): void {
    let rest = count;
    while (rest > 0) {
      const chunk = this.pending[this.head] as Uint8Array;
      if (chunk.length > rest) {
        this.pending[this.head] = chunk.subarray(rest);
        break;
      }
      rest -= chunk.length;
      this.dropHead();
    }
    this.pendingBytes -= count;
  }

  /** Removes and returns `count` pending bytes: a view when they lie in one chunk. */
  private take(count: number): Uint8Array {
    this.pendingBytes -= count;
    const first = this.pending[this.head];
    if (first === undefined || count === 0) return new Uint8Array(0);
    if (first.length >= count) {
      const frame = first.subarray(0, count);
      if (first.length === count) this.dropHead();
      else this.pending[this.head] = first.subarray(count);
      return frame;
    }
    return this.takeCopy(count);
  }

  private takeCopy(count: number): Uint8Array {
    const frame = Buffer.allocUnsafe(count);
    let filled = 0;
    while (filled < count) {
      const chunk = this.pending[this.head] as Uint8Array;
      const used = Math.min(chunk.length, count - filled);
      frame.set(chunk.subarray(0, used), filled);
      filled += used;
      if (used === chunk.length) this.dropHead();
      else this.pending[this.head] = chunk.subarray(used);
    }
    return frame;
  }

  private dropHead(): void {
    this.head++;
    // Compact now and then so the array of consumed chunks does not grow without bound.
    if (this.head === this.pending.length) {
      this.pending = [];
      this.head = 0;
    } else if (this.head >= 64) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
  }
}

/** The 4-byte big-endian size prefix of a frame of `size` bytes. */
export function encodeFrameSize(size: number): Uint8Array {
  assert(Number.isInteger(size), "frame size must be an integer");
  assert(size >= 0 && size <= INT32_MAX, "frame size must fit in an int32");
  const prefix = new Uint8Array(SIZE_PREFIX_BYTES);
  new DataView(prefix.buffer).setInt32(0, size);
  return prefix;
}

/**
 * A frame as chunks for a vectored write: the size prefix, then `chunks` themselves, not copied
 * (they must not change until written).
 */
export function encodeFrame(chunks: readonly Uint8Array[]): Uint8Array[] {
  let size = 0;
  for (const chunk of chunks) size += chunk.length;
  return [encodeFrameSize(size), ...chunks];
}
