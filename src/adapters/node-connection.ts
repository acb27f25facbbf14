import type { Socket } from "node:net";
import { assert } from "../common/index.js";
import type { Address, Connection, ConnectionHandlers, TlsSession } from "../ports/index.js";

let nextConnectionNumber = 1;

/** The address of one end of `socket`, or the unspecified address once it is gone. */
function endAddress(host: string | undefined, port: number | undefined): Address {
  return { host: host ?? "", port: port ?? 0 };
}

/**
 * A TCP connection. The socket stays paused until `attach`, so bytes that arrive first wait in
 * the kernel, and a close that happens first is reported on attach.
 */
export class NodeConnection implements Connection {
  readonly id: string;
  readonly localAddress: Address;
  readonly remoteAddress: Address;
  private handlers: ConnectionHandlers | undefined;
  private isReadingPaused = false;
  private failure: Error | undefined;
  private closedBeforeAttach: { error: Error | undefined } | undefined;

  /**
   * Wraps a connected socket (a TLS socket after its handshake, with what it learned); turns
   * Nagle's algorithm off, as Kafka clients and brokers do.
   */
  constructor(
    private readonly socket: Socket,
    readonly tls?: TlsSession,
  ) {
    this.id = `${tls === undefined ? "tcp" : "tls"}-${nextConnectionNumber++}`;
    this.localAddress = endAddress(socket.localAddress, socket.localPort);
    this.remoteAddress = endAddress(socket.remoteAddress, socket.remotePort);
    socket.setNoDelay(true);
    socket.pause();
    socket.on("data", (chunk: Buffer) => this.handlers?.data(chunk));
    socket.on("drain", () => this.handlers?.drain?.());
    // An 'error' is always followed by 'close'; it is kept and reported with the close.
    socket.on("error", (error: Error) => {
      this.failure ??= error;
    });
    socket.on("close", (hadError: boolean) => this.onClose(hadError));
  }

  attach(handlers: ConnectionHandlers): void {
    assert(this.handlers === undefined, "a connection is attached once");
    this.handlers = handlers;
    if (this.closedBeforeAttach !== undefined) {
      handlers.close(this.closedBeforeAttach.error);
      return;
    }
    if (!this.isReadingPaused) this.socket.resume();
  }

  write(data: Uint8Array | readonly Uint8Array[]): boolean {
    if (this.socket.destroyed || this.socket.writableEnded) return false;
    if (data instanceof Uint8Array) return this.socket.write(data);
    // Corking turns the chunks into one writev system call and one TCP segment train.
    this.socket.cork();
    let hasRoom = true;
    for (const chunk of data) hasRoom = this.socket.write(chunk);
    this.socket.uncork();
    return hasRoom;
  }

  pauseReading(): void {
    this.isReadingPaused = true;
    this.socket.pause();
  }

  resumeReading(): void {
    this.isReadingPaused = false;
    if (this.handlers !== undefined) this.socket.resume();
  }

  close(): void {
    this.socket.end();
  }

  destroy(error?: Error): void {
    if (error !== undefined) this.failure ??= error;
    this.socket.destroy();
  }

  private onClose(hadError: boolean): void {
    const error = hadError || this.failure !== undefined ? this.closeError() : undefined;
    if (this.handlers === undefined) {
      this.closedBeforeAttach = { error };
      return;
    }
    this.handlers.close(error);
  }

  private closeError(): Error {
    return this.failure ?? new Error(`connection ${this.id} failed`);
  }
}
