import { assert } from "../../common/index.js";

/** A connection that waits for memory before it reads the rest of a frame. */
export interface MemoryWaiter {
  memoryAvailable(): void;
}

/**
 * The bytes of request frames being read or waiting to be handled, over every connection of one
 * server, bounded by `queued.max.request.bytes` as Kafka's SimpleMemoryPool bounds them. A frame
 * asks for its size once its size prefix is in; the pool grants it while any memory is left, so
 * the bytes in use stay below the pool's size plus one frame (Kafka's non-strict pool, which is
 * what lets a frame as large as `socket.request.max.bytes` through). A connection refused waits
 * here without reading; each release lets the waiting connections, oldest first, ask again.
 * A size of -1 (Kafka's default) or 0 is no bound: every request is granted and nothing waits.
 */
export class RequestMemoryPool {
  private available: number;
  private readonly waiting = new Set<MemoryWaiter>();

  /** `onUsed` hears the bytes in use after every change (a gauge). */
  constructor(
    readonly sizeBytes: number,
    private readonly onUsed: (usedBytes: number) => void = () => {},
  ) {
    assert(Number.isSafeInteger(sizeBytes), "queued.max.request.bytes is an integer");
    this.available = sizeBytes;
  }

  get isBounded(): boolean {
    return this.sizeBytes > 0;
  }

  /** Bytes not granted; negative while the last grant overshot the pool. */
  get availableBytes(): number {
    return this.isBounded ? this.available : Number.POSITIVE_INFINITY;
  }

  /** Bytes granted and not yet released. */
  get usedBytes(): number {
    return this.isBounded ? this.sizeBytes - this.available : 0;
  }

  /** Connections waiting for memory. */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /**
   * Grants `bytes` to `waiter`'s frame, or makes it wait when no memory is left. An empty frame
   * needs no memory and is always granted, as in Kafka.
   */
  tryAllocate(bytes: number, waiter: MemoryWaiter): boolean {
    assert(Number.isInteger(bytes) && bytes >= 0, "a frame's size is a natural number");
    if (!this.isBounded || bytes === 0) return true;
    if (this.available < 1) {
      this.waiting.add(waiter);
      return false;
    }
    this.available -= bytes;
    this.onUsed(this.usedBytes);
    return true;
  }

  /**
   * True while memory is left for another frame; otherwise `waiter` waits, as Kafka mutes every
   * connection that cannot allocate its next frame while the pool is empty.
   */
  hasMemoryFor(waiter: MemoryWaiter): boolean {
    if (!this.isBounded || this.available >= 1) return true;
    this.waiting.add(waiter);
    return false;
  }

  /**
   * Counts `bytes` already received whole in one read, before they could be asked for; they are
   * in memory either way, and counting them keeps every frame's release matched.
   */
  allocateReceived(bytes: number): void {
    if (!this.isBounded || bytes === 0) return;
    this.available -= bytes;
    this.onUsed(this.usedBytes);
  }

  /** A frame's bytes are no longer held: waiting connections ask again, oldest first. */
  release(bytes: number): void {
    if (!this.isBounded || bytes === 0) return;
    this.available += bytes;
    assert(this.available <= this.sizeBytes, "a frame's bytes are released once");
    this.onUsed(this.usedBytes);
    for (const waiter of [...this.waiting]) {
      if (this.available < 1) return;
      this.waiting.delete(waiter);
      waiter.memoryAvailable();
    }
  }

  /** `waiter` closed: it waits no longer. */
  forget(waiter: MemoryWaiter): void {
    this.waiting.delete(waiter);
  }
}
