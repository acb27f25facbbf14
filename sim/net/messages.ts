import type { Lane, Scheduler } from "../scheduler.js";
import type { LinkTable } from "./links.js";

/** Receives a message sent to a node. */
export type MessageHandler<M> = (message: M, from: string) => void;

/** Counts of what the message transport did. */
export interface MessageStats {
  sent: number;
  delivered: number;
  dropped: number;
  duplicated: number;
}

/**
 * Datagram-like messages between nodes, on which the link faults apply directly: each message
 * may be dropped, delivered twice, delayed, or taken out of FIFO order. Without faults a link
 * delivers in send order. A message is passed by reference; receivers must not change it.
 */
export class MessageTransport<M> {
  readonly stats: MessageStats = { sent: 0, delivered: 0, dropped: 0, duplicated: 0 };
  private readonly handlers = new Map<string, MessageHandler<M>>();
  private readonly lanes = new Map<string, Lane>();
  private nextMessageNumber = 1;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly links: LinkTable,
  ) {}

  /** Sets the handler of `node`, replacing any earlier one. */
  handle(node: string, handler: MessageHandler<M>): void {
    this.handlers.set(node, handler);
  }

  /** Removes the handler of `node` (its process died). */
  forget(node: string): void {
    this.handlers.delete(node);
  }

  send(from: string, to: string, message: M): void {
    const number = this.nextMessageNumber++;
    this.stats.sent += 1;
    const sender = this.scheduler.node(from);
    if (!sender.isUp || this.links.isCut(from, to) || this.links.roll(from, to, "drop")) {
      this.drop(from, to, number, "at send");
      return;
    }
    this.scheduler.record(`msg ${from}->${to} #${number} sent`);
    const copies = this.links.roll(from, to, "duplicate") ? 2 : 1;
    if (copies === 2) this.stats.duplicated += 1;
    for (let copy = 0; copy < copies; copy++) this.dispatch(from, to, number, message);
  }

  private dispatch(from: string, to: string, number: number, message: M): void {
    const delayMs = this.links.drawDelayMs(from, to);
    const deliver = (): void => this.deliver(from, to, number, message);
    if (this.links.roll(from, to, "reorder")) {
      // Out of order: an extra delay of its own, outside the link's FIFO lane.
      const extraMs = this.links.between(0, this.links.settings(from, to).reorderWindowMs);
      this.scheduler.schedule(delayMs + extraMs, deliver, { label: `msg ${from}->${to}` });
      return;
    }
    this.lane(from, to).push(delayMs, deliver, { label: `msg ${from}->${to}` });
  }

  private deliver(from: string, to: string, number: number, message: M): void {
    const handler = this.handlers.get(to);
    if (!this.scheduler.node(to).isUp || handler === undefined) {
      this.drop(from, to, number, "receiver down");
      return;
    }
    if (this.links.isCut(from, to)) {
      this.drop(from, to, number, "cut in flight");
      return;
    }
    this.stats.delivered += 1;
    this.scheduler.record(`msg ${from}->${to} #${number} delivered`);
    handler(message, from);
  }

  private drop(from: string, to: string, number: number, reason: string): void {
    this.stats.dropped += 1;
    this.scheduler.record(`msg ${from}->${to} #${number} dropped ${reason}`);
  }

  private lane(from: string, to: string): Lane {
    const key = `${from}->${to}`;
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = this.scheduler.lane(`msg ${key}`);
      this.lanes.set(key, lane);
    }
    return lane;
  }
}
