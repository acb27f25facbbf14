import { createServer, connect as connectSocket, type Server, type Socket } from "node:net";
import type { Server as TlsServer } from "node:tls";
import type {
  Address,
  Connection,
  Listener,
  Logger,
  Network,
  TlsClientSettings,
  TlsListenerOptions,
  TlsServerSettings,
} from "../ports/index.js";
import { NodeConnection } from "./node-connection.js";
import { connectWithTls, serverContext, serverContextOptions, tlsServer } from "./node-tls.js";

export interface NodeNetworkOptions {
  /** Where failures of a listening socket after it started are reported. */
  readonly logger?: Logger;
}

class NodeListener implements Listener {
  private isClosed = false;

  constructor(
    private readonly server: Server,
    readonly address: Address,
  ) {}

  updateTls(settings: TlsServerSettings): void {
    const server = this.server as TlsServer;
    if (typeof server.setSecureContext !== "function") {
      throw new Error("the listener does not serve TLS");
    }
    // Loading first throws on a bad key or certificate and leaves the served ones in place.
    serverContext(settings);
    server.setSecureContext(serverContextOptions(settings));
  }

  close(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    this.isClosed = true;
    // server.close's callback waits for every accepted connection to end; the port promises
    // only that accepting stops, which server.close does at once.
    this.server.close();
    return Promise.resolve();
  }
}

export class NodeNetwork implements Network {
  constructor(private readonly options: NodeNetworkOptions = {}) {}

  listen(
    address: Address,
    onConnection: (connection: Connection) => void,
    options?: TlsListenerOptions,
  ): Promise<Listener> {
    const server =
      options === undefined
        ? createServer({ noDelay: true, pauseOnConnect: true }, (socket: Socket) =>
            onConnection(new NodeConnection(socket)),
          )
        : tlsServer(options.tls, onConnection, this.options.logger);
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host: address.host, port: address.port }, () => {
        server.off("error", reject);
        server.on("error", (error) =>
          this.options.logger?.error("listener failed", { host: address.host, error }),
        );
        const bound = server.address();
        const port = typeof bound === "object" && bound !== null ? bound.port : address.port;
        resolve(new NodeListener(server, { host: address.host, port }));
      });
    });
  }

  connect(address: Address, options?: { readonly tls?: TlsClientSettings }): Promise<Connection> {
    if (options?.tls !== undefined) return connectWithTls(address, options.tls);
    return new Promise((resolve, reject) => {
      const socket = connectSocket({ host: address.host, port: address.port, noDelay: true });
      socket.once("error", reject);
      socket.once("connect", () => {
        socket.off("error", reject);
        resolve(new NodeConnection(socket));
      });
    });
  }
}
