import type { Scheduler } from "../scheduler.js";
import type { LinkTable } from "./links.js";

/** What travels in one direction of a simulated TCP connection. */
export type Segment =
  | { readonly kind: "data"; readonly bytes: Uint8Array }
  | { readonly kind: "end" }
  | { readonly kind: "reset" };

interface QueuedSegment {
  readonly segment: Segment;
  readyAtMs: number;
}

/**
 * One direction of a simulated TCP connection: segments arrive in the order sent, each after
 * the link's delay, never lost, duplicated or reordered. While the link is cut they wait (TCP
 * retransmits) and arrive after it heals.
 */
export class Pipe {
  private readonly queue: QueuedSegment[] = [];
  private isPumpScheduled = false;
  private lastReadyAtMs = 0;
  private queuedBytes = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly links: LinkTable,
    readonly from: string,
    readonly to: string,
    private readonly deliver: (segment: Segment) => void,
  ) {}

  /** Bytes sent and not yet delivered. */
  get bufferedBytes(): number {
    return this.queuedBytes;
  }

  /** Segments sent and not yet delivered. */
  get bufferedSegments(): number {
    return this.queue.length;
  }

  send(segment: Segment): void {
    const now = this.scheduler.nowMs();
    const readyAtMs = Math.max(
      now + this.links.drawDelayMs(this.from, this.to),
      this.lastReadyAtMs,
    );
    this.lastReadyAtMs = readyAtMs;
    for (const piece of this.split(segment)) {
      this.queue.push({ segment: piece, readyAtMs });
      if (piece.kind === "data") this.queuedBytes += piece.bytes.length;
    }
    this.maybeSchedulePump();
  }

  /** Drops everything not yet delivered (the sender died or reset the connection). */
  clear(): void {
    this.queue.length = 0;
    this.queuedBytes = 0;
  }

  /** Restarts delivery after the link healed: what waited arrives after a fresh delay. */
  resume(): void {
    const readyAtMs = this.scheduler.nowMs() + this.links.drawDelayMs(this.from, this.to);
    for (const queued of this.queue) queued.readyAtMs = Math.max(queued.readyAtMs, readyAtMs);
    this.lastReadyAtMs = Math.max(this.lastReadyAtMs, readyAtMs);
    this.maybeSchedulePump();
  }

  private split(segment: Segment): Segment[] {
    if (segment.kind !== "data" || segment.bytes.length < 2) return [segment];
    if (!this.links.roll(this.from, this.to, "split")) return [segment];
    const cut = this.links.between(1, segment.bytes.length - 1);
    return [
      { kind: "data", bytes: segment.bytes.subarray(0, cut) },
      { kind: "data", bytes: segment.bytes.subarray(cut) },
    ];
  }

  private maybeSchedulePump(): void {
    const head = this.queue[0];
    if (this.isPumpScheduled || head === undefined || this.links.isCut(this.from, this.to)) return;
    this.isPumpScheduled = true;
    this.scheduler.schedule(head.readyAtMs - this.scheduler.nowMs(), () => this.pump(), {
      label: `tcp ${this.from}->${this.to}`,
    });
  }

  private pump(): void {
    this.isPumpScheduled = false;
    for (;;) {
      const head = this.queue[0];
      if (head === undefined || head.readyAtMs > this.scheduler.nowMs()) break;
      if (this.links.isCut(this.from, this.to)) break;
      this.queue.shift();
      if (head.segment.kind === "data") this.queuedBytes -= head.segment.bytes.length;
      this.scheduler.record(`tcp ${this.from}->${this.to} ${describe(head.segment)}`);
      this.deliver(head.segment);
    }
    this.maybeSchedulePump();
  }
}

function describe(segment: Segment): string {
  return segment.kind === "data" ? `data ${segment.bytes.length}` : segment.kind;
}
