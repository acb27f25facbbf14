import { assert } from "../../src/common/index.js";
import type { Address, Connection, ConnectionHandlers } from "../../src/ports/index.js";
import type { SimNode } from "../node.js";
import { SimNetworkError } from "./errors.js";
import type { Pipe, Segment } from "./pipe.js";

/** What a connection end needs from its network. */
export interface ConnectionHost {
  /** Runs `callback` soon on `node`, unless the node crashes first. */
  later(node: SimNode, incarnation: number, callback: () => void): void;
  /** True when a write on `from` → `to` should reset the connection (a link fault). */
  shouldReset(from: string, to: string): boolean;
  /** Bytes in flight above which `write` returns false. */
  readonly sendBufferBytes: number;
}

/**
 * One end of a simulated TCP connection. States: open → ending (close called, our end sent)
 * → closed; open → closed on receiving the peer's end, a reset, or destroy. The close handler
 * runs exactly once, and never after the owning node crashed.
 */
export class SimConnection implements Connection {
  private handlers: ConnectionHandlers | undefined;
  private readonly inbox: Segment[] = [];
  private isPaused = false;
  private state: "open" | "ending" | "closed" = "open";
  private closeError: { error: Error | undefined } | undefined;
  private isCloseReported = false;
  private needsDrain = false;
  private outgoing: Pipe | undefined;

  constructor(
    readonly id: string,
    readonly localAddress: Address,
    readonly remoteAddress: Address,
    readonly node: SimNode,
    private readonly incarnation: number,
    private readonly host: ConnectionHost,
  ) {}

  /** True once this end closed for any reason. */
  get isClosed(): boolean {
    return this.state === "closed";
  }

  /** Connects this end to the pipe towards its peer (once, right after creation). */
  bind(outgoing: Pipe): void {
    assert(this.outgoing === undefined, "a connection end is bound once");
    this.outgoing = outgoing;
  }

  attach(handlers: ConnectionHandlers): void {
    assert(this.handlers === undefined, "a connection is attached once");
    this.handlers = handlers;
    this.scheduleFlush();
  }

  write(data: Uint8Array | readonly Uint8Array[]): boolean {
    const pipe = this.pipe();
    if (this.state !== "open") return false;
    if (this.host.shouldReset(pipe.from, pipe.to)) {
      this.destroy(new SimNetworkError("ECONNRESET", `${this.id} reset by a link fault`));
      return false;
    }
    pipe.send({ kind: "data", bytes: concatenate(data) });
    const hasRoom = pipe.bufferedBytes < this.host.sendBufferBytes;
    if (!hasRoom) this.needsDrain = true;
    return hasRoom;
  }

  pauseReading(): void {
    this.isPaused = true;
  }

  resumeReading(): void {
    this.isPaused = false;
    this.scheduleFlush();
  }

  close(): void {
    if (this.state !== "open") return;
    this.state = "ending";
    this.pipe().send({ kind: "end" });
  }

  destroy(error?: Error): void {
    if (this.state === "closed") return;
    this.pipe().clear();
    this.pipe().send({ kind: "reset" });
    this.finish(error);
  }

  /** The node crashed: the peer gets a reset, and nothing is reported here any more. */
  abandon(): void {
    if (this.state !== "closed") {
      this.pipe().clear();
      this.pipe().send({ kind: "reset" });
    }
    this.state = "closed";
    this.isCloseReported = true;
  }

  /** A segment from the peer arrived. */
  receive(segment: Segment): void {
    if (this.state === "closed") return;
    this.inbox.push(segment);
    this.flush();
  }

  /** The peer's pipe delivered bytes; report drain if a write was refused before. */
  onDelivered(): void {
    if (!this.needsDrain || this.state === "closed") return;
    if (this.pipe().bufferedBytes >= this.host.sendBufferBytes) return;
    this.needsDrain = false;
    this.handlers?.drain?.();
  }

  private flush(): void {
    while (this.handlers !== undefined && !this.isPaused && this.state !== "closed") {
      const segment = this.inbox.shift();
      if (segment === undefined) break;
      if (segment.kind === "data") this.handlers.data(segment.bytes);
      else if (segment.kind === "end") this.onEnd();
      else this.onReset();
    }
    this.maybeReportClose();
  }

  private onEnd(): void {
    // The peer closed; like a Node socket without allowHalfOpen, we end our side too.
    if (this.state === "open") this.pipe().send({ kind: "end" });
    this.finish(undefined);
  }

  private onReset(): void {
    this.pipe().clear();
    this.finish(new SimNetworkError("ECONNRESET", `${this.id} reset by peer`));
  }

  private finish(error: Error | undefined): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.closeError = { error };
    this.inbox.length = 0;
    // Reported from an event of its own, as a socket's 'close' comes after the call returns.
    this.host.later(this.node, this.incarnation, () => this.maybeReportClose());
  }

  private maybeReportClose(): void {
    const handlers = this.handlers;
    const closed = this.closeError;
    if (handlers === undefined || closed === undefined || this.isCloseReported) return;
    this.isCloseReported = true;
    handlers.close(closed.error);
  }

  private scheduleFlush(): void {
    this.host.later(this.node, this.incarnation, () => this.flush());
  }

  private pipe(): Pipe {
    assert(this.outgoing !== undefined, "a connection end is bound before use");
    return this.outgoing;
  }
}

function concatenate(data: Uint8Array | readonly Uint8Array[]): Uint8Array {
  if (data instanceof Uint8Array) return data.slice();
  const copy = new Uint8Array(data.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of data) {
    copy.set(chunk, at);
    at += chunk.length;
  }
  return copy;
}
