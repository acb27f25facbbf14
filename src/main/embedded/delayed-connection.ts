/**
 * A connection between two nodes of the embedded cluster whose bytes may be held back: while its
 * link is slowed (`slowLink`), what a side writes is passed on, and what arrives is delivered,
 * `delayMs` later, in order. With no delay it passes everything straight through. Both directions
 * of the link are slowed on the connecting side alone, which is the one the cluster can tell apart
 * (an accepted connection does not say which node opened it).
 */
import type { Clock, Connection, ConnectionHandlers, Timer, Timers } from "../../ports/index.js";

/** Bytes held back in one direction beyond which `write` asks the writer to wait. */
const HELD_BYTES_MAX = 1024 * 1024;

/** One direction of held bytes: each chunk with the monotonic time it is due. */
class HeldQueue {
  private readonly chunks: { readonly dueMs: number; readonly run: () => void; size: number }[] =
    [];
  private timer: Timer | undefined;
  private lastDueMs = 0;
  bytes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly isHeld: () => boolean,
  ) {}

  get isEmpty(): boolean {
    return this.chunks.length === 0;
  }

  /** Runs `run` `delayMs` from now, never before anything queued earlier. */
  push(delayMs: number, size: number, run: () => void): void {
    const dueMs = Math.max(this.clock.monotonicMs() + delayMs, this.lastDueMs);
    this.lastDueMs = dueMs;
    this.chunks.push({ dueMs, run, size });
    this.bytes += size;
    this.arm();
  }

  /** Runs what is due, in order, unless the direction is held (reading paused). */
  flush(): void {
    this.timer = undefined;
    const nowMs = this.clock.monotonicMs();
    while (!this.isHeld()) {
      const next = this.chunks[0];
      if (next === undefined || next.dueMs > nowMs) break;
      this.chunks.shift();
      this.bytes -= next.size;
      next.run();
    }
    this.arm();
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.chunks.length = 0;
    this.bytes = 0;
  }

  private arm(): void {
    const next = this.chunks[0];
    if (next === undefined || this.timer !== undefined || this.isHeld()) return;
    const waitMs = Math.max(0, next.dueMs - this.clock.monotonicMs());
    this.timer = this.timers.schedule(waitMs, () => this.flush());
  }
}

export class DelayedConnection implements Connection {
  private readonly outgoing: HeldQueue;
  private readonly incoming: HeldQueue;
  private isReadingPaused = false;
  private isWriterWaiting = false;
  private handlers: ConnectionHandlers | undefined;

  constructor(
    private readonly inner: Connection,
    ports: { readonly clock: Clock; readonly timers: Timers },
    /** The link's delay now, read at each write and each arrival. */
    private readonly delayMs: () => number,
  ) {
    this.outgoing = new HeldQueue(ports.clock, ports.timers, () => false);
    this.incoming = new HeldQueue(ports.clock, ports.timers, () => this.isReadingPaused);
  }

  get id(): string {
    return this.inner.id;
  }

  get localAddress() {
    return this.inner.localAddress;
  }

  get remoteAddress() {
    return this.inner.remoteAddress;
  }

  attach(handlers: ConnectionHandlers): void {
    this.handlers = handlers;
    const later = (run: () => void, size: number): void => {
      const delayMs = this.delayMs();
      if (delayMs <= 0 && this.incoming.isEmpty) run();
      else this.incoming.push(delayMs, size, run);
    };
    this.inner.attach({
      data: (chunk) => later(() => handlers.data(chunk), chunk.byteLength),
      drain: () => handlers.drain?.(),
      close: (error) => {
        // What arrived before the end is delivered first; the end itself is not slowed.
        if (this.incoming.isEmpty) handlers.close(error);
        else this.incoming.push(0, 0, () => handlers.close(error));
        this.outgoing.cancel();
      },
    });
  }

  write(data: Uint8Array | readonly Uint8Array[]): boolean {
    const delayMs = this.delayMs();
    if (delayMs <= 0 && this.outgoing.isEmpty) return this.inner.write(data);
    const size = data instanceof Uint8Array ? data.byteLength : sizeOf(data);
    this.outgoing.push(delayMs, size, () => {
      this.inner.write(data);
      if (this.isWriterWaiting && this.outgoing.bytes < HELD_BYTES_MAX) {
        this.isWriterWaiting = false;
        this.handlers?.drain?.();
      }
    });
    if (this.outgoing.bytes < HELD_BYTES_MAX) return true;
    this.isWriterWaiting = true;
    return false;
  }

  pauseReading(): void {
    this.isReadingPaused = true;
    this.inner.pauseReading();
  }

  resumeReading(): void {
    this.isReadingPaused = false;
    this.inner.resumeReading();
    this.incoming.flush();
  }

  close(): void {
    if (this.outgoing.isEmpty) this.inner.close();
    else this.outgoing.push(0, 0, () => this.inner.close());
  }

  destroy(error?: Error): void {
    this.outgoing.cancel();
    this.incoming.cancel();
    this.inner.destroy(error);
  }
}

function sizeOf(chunks: readonly Uint8Array[]): number {
  return chunks.reduce((total, chunk) => total + chunk.byteLength, 0);
}
