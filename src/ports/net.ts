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

/**
 * TLS settings of a listener. Keys and certificates are PEM text; `key` may be encrypted, with
 * `keyPassword` to open it.
 */
export interface TlsServerSettings {
  readonly key: string;
  readonly keyPassword?: string | undefined;
  /** The server's certificate chain, leaf first. */
  readonly certificateChain: string;
  /** The certificates trusted to sign client certificates; none means no client is trusted. */
  readonly trustedCertificates?: string | undefined;
  /** Kafka's `ssl.client.auth`: whether a client certificate is asked for and required. */
  readonly clientAuth: "none" | "requested" | "required";
}

/** TLS settings of an outgoing connection. */
export interface TlsClientSettings {
  /** The certificates trusted to sign the server's certificate. */
  readonly trustedCertificates?: string | undefined;
  /** A client certificate and key, for listeners that ask for one. */
  readonly key?: string | undefined;
  readonly keyPassword?: string | undefined;
  readonly certificateChain?: string | undefined;
  /** The name the server's certificate must carry; the connected host when unset. */
  readonly serverName?: string | undefined;
  /** Kafka's `ssl.endpoint.identification.algorithm`: false when set to the empty string. */
  readonly verifyHostname: boolean;
}

/** What a TLS connection learned from its handshake. */
export interface TlsSession {
  /**
   * The subject of the certificate the peer presented and the trusted certificates verified, as
   * an RFC 2253 distinguished name (most specific attribute first, as Java's X500Principal
   * prints it); undefined when the peer presented none.
   */
  readonly peerSubject: string | undefined;
}

/** The options of a listener that serves TLS. */
export interface TlsListenerOptions {
  readonly tls: TlsServerSettings;
}

/** One byte stream. Data that arrives before `attach` is held and delivered on attach. */
export interface Connection {
  readonly id: string;
  readonly localAddress: Address;
  readonly remoteAddress: Address;
  /** Set on a connection whose TLS handshake completed; undefined on plain TCP. */
  readonly tls?: TlsSession | undefined;
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
  /**
   * Replaces the TLS key and certificates of a TLS listener for the handshakes that follow;
   * open connections keep theirs. Throws when the settings do not load, leaving the old ones.
   */
  updateTls?(settings: TlsServerSettings): void;
  /** Stops accepting; open connections stay open. */
  close(): Promise<void>;
}

/**
 * Plain TCP unless the options ask for TLS. A TLS listener hands over only connections whose
 * handshake completed; a failed handshake (a plaintext peer, an untrusted certificate) ends the
 * connection without reaching `onConnection`. A TLS `connect` resolves once the handshake
 * completed and rejects when it fails.
 */
export interface Network {
  listen(
    address: Address,
    onConnection: (connection: Connection) => void,
    options?: TlsListenerOptions,
  ): Promise<Listener>;
  connect(address: Address, options?: { readonly tls?: TlsClientSettings }): Promise<Connection>;
}
