/**
 * The Server-Sent Events side of the HTTP server: the open `text/event-stream` responses, one
 * timer that ticks them all, and their limits. A stream's text is written as it is sent; a
 * client whose unsent text passes the buffer limit is ended rather than buffered without bound,
 * and a tick on which a stream sent nothing writes an SSE comment so that idle connections stay
 * open through proxies. `closeAll` ends every stream, for the server's close.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../ports/index.js";

/** What a stream route's `open` receives to write with (src/http's HttpEventSink). */
export interface HttpServerEventSink {
  send(text: string): void;
  end(): void;
}

/** An open stream (src/http's HttpEventStream). */
export interface HttpServerEventStream {
  tick(): void;
  close(): void;
}

export interface EventStreamLimits {
  /** Streams open at once; one more is answered 503. 16. */
  readonly streamsMax: number;
  /** How often every open stream is ticked. 2 s. */
  readonly streamTickMs: number;
  /** Unsent text a client may hold before it is ended as too slow. 1 MiB. */
  readonly streamBufferBytesMax: number;
}

/** What a stream route's `open` gives (src/http's HttpStreamOpening). */
export type EventStreamOpening<Refusal> =
  | { readonly kind: "open"; readonly stream: HttpServerEventStream }
  | { readonly kind: "refused"; readonly response: Refusal };

interface OpenStream {
  readonly response: ServerResponse;
  stream: HttpServerEventStream | undefined;
  /** What the stream sent while it was opening, before the response started. */
  pending: string[] | undefined;
  hasSentSinceTick: boolean;
  isEnded: boolean;
}

export class EventStreams {
  private readonly open = new Set<OpenStream>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly limits: EventStreamLimits,
    private readonly logger: Logger,
  ) {}

  get isFull(): boolean {
    return this.open.size >= this.limits.streamsMax;
  }

  /**
   * Opens a stream on `response` with `open`: a refusal is handed back for the server to write
   * as a plain response; otherwise the `text/event-stream` response starts with whatever the
   * stream sent while opening.
   */
  start<Refusal>(
    request: IncomingMessage,
    response: ServerResponse,
    open: (sink: HttpServerEventSink) => EventStreamOpening<Refusal>,
  ): Refusal | undefined {
    const entry: OpenStream = {
      response,
      stream: undefined,
      pending: [],
      hasSentSinceTick: false,
      isEnded: false,
    };
    const sink: HttpServerEventSink = {
      send: (text) => this.send(entry, text),
      end: () => this.end(entry),
    };
    const opening = open(sink);
    if (opening.kind === "refused") return opening.response;
    const pending = entry.pending ?? [];
    entry.pending = undefined;
    entry.stream = opening.stream;
    response.statusCode = 200;
    response.setHeader("content-type", "text/event-stream; charset=utf-8");
    response.setHeader("cache-control", "no-store");
    response.setHeader("x-content-type-options", "nosniff");
    // A stream's connection is never reused: once it ends, node closes it, so that closing the
    // server does not wait for it to go idle.
    response.setHeader("connection", "close");
    response.flushHeaders();
    request.socket.setTimeout(0);
    this.open.add(entry);
    response.once("close", () => this.end(entry));
    if (entry.isEnded) {
      // The stream ended its sink while opening: it still gets its close.
      entry.isEnded = false;
      this.end(entry);
      return undefined;
    }
    for (const text of pending) this.send(entry, text);
    // Sending what was pending may have ended a client that does not keep up.
    if (!entry.isEnded) this.ensureTicking();
    return undefined;
  }

  /** Ends every open stream. */
  closeAll(): void {
    for (const entry of [...this.open]) this.end(entry);
  }

  private send(entry: OpenStream, text: string): void {
    if (entry.isEnded) return;
    if (entry.pending !== undefined) {
      entry.pending.push(text);
      return;
    }
    entry.hasSentSinceTick = true;
    entry.response.write(text);
    if (entry.response.writableLength > this.limits.streamBufferBytesMax) {
      this.logger.warn("http event stream ended: the client does not keep up", {
        bufferedBytes: entry.response.writableLength,
      });
      this.end(entry);
    }
  }

  private end(entry: OpenStream): void {
    if (entry.isEnded) return;
    entry.isEnded = true;
    // Ended while opening: there is no response yet to end.
    if (entry.pending !== undefined) return;
    this.open.delete(entry);
    entry.stream?.close();
    entry.response.end();
    if (this.open.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private ensureTicking(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.tick(), this.limits.streamTickMs);
  }

  private tick(): void {
    for (const entry of [...this.open]) {
      entry.hasSentSinceTick = false;
      try {
        entry.stream?.tick();
      } catch (error) {
        this.logger.error("http event stream failed", { error });
        this.end(entry);
        continue;
      }
      // An SSE comment line: ignored by EventSource, it keeps the connection in use.
      if (!entry.hasSentSinceTick) this.send(entry, ":\n\n");
    }
  }
}
