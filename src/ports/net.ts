/**
 * The network port: byte streams between nodes and clients, on real TCP or on the simulator's
 * network.
 */

export interface Address {
  readonly host: string;
  readonly port: number;
}

/** Callbacks a connection delivers; set once with `Connection.attach`. */
export interface ConnectionHandlers {
  /** Bytes arrived. The chunk is owned by the receiver. */
  data(chunk: Uint8Array): void;
  /** The write buffer drained after `write` returned false. */
  drain?(): void;
  /** The connection ended; `error` is set when it ended by a failure rather than a close. */
  close(error?: Error): void;
}

/** One byte stream. Data that arrives before `attach` is held and delivered on attach. */
export interface Connection {
  readonly id: string;
  readonly localAddress: Address;
  readonly remoteAddress: Address;
  attach(handlers: ConnectionHandlers): void;
  /** Queues bytes for sending; false means the send buffer is full and the caller should wait. */
  write(data: Uint8Array | readonly Uint8Array[]): boolean;
  /** Stops delivering data until `resumeReading` (backpressure towards the peer). */
  pauseReading(): void;
  resumeReading(): void;
  /** Ends the connection after queued bytes are sent. */
  close(): void;
  /** Ends the connection at once, dropping queued bytes. */
  destroy(error?: Error): void;
}

export interface Listener {
  /** The bound address; the port is the real one when 0 was asked for. */
  readonly address: Address;
  /** Stops accepting; open connections stay open. */
  close(): Promise<void>;
}

export interface Network {
  listen(address: Address, onConnection: (connection: Connection) => void): Promise<Listener>;
  connect(address: Address): Promise<Connection>;
}
