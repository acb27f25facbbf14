/**
 * The embedded cluster's network: real loopback TCP (so that any client reaches the nodes), with
 * the links between its nodes under the cluster's control. Every node's Kafka listeners are bound
 * on port 0 once, before the first start, and held until the cluster closes, so that a node
 * stopped and started again comes back on the same ports (the voters' addresses are in every
 * node's configuration); while its node is down, a connection to a held port is closed at once.
 *
 * Faults act on the connections one node opens to another (every request between nodes goes over
 * one: Raft, registration and heartbeats, replica fetches, forwarding): a partitioned node's links
 * are cut and no new one opens until `heal`; a slowed link holds its bytes back. Clients outside
 * the cluster are never cut off.
 */
import type {
  Address,
  Clock,
  Connection,
  ConnectionHandlers,
  Listener,
  Network,
  Timers,
} from "../../ports/index.js";
import { DelayedConnection } from "./delayed-connection.js";

/** A listener bound for a node (none while the node is stopped), and where it routes. */
interface HeldPort {
  readonly nodeId: number;
  readonly address: Address;
  listener: Listener | undefined;
  route: ((connection: Connection) => void) | undefined;
}

/** A connection between two nodes, opened by `from`. */
interface Link {
  readonly from: number;
  readonly to: number;
  readonly connection: Connection;
}

function addressKey(address: Address): string {
  return `${address.host}:${address.port}`;
}

function linkKey(a: number, b: number): string {
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

export class ClusterNetwork {
  private readonly held = new Map<string, HeldPort>();
  private readonly isolated = new Set<number>();
  private readonly delays = new Map<string, number>();
  private readonly links = new Set<Link>();
  /** Connections each node accepted and has not closed, by node id. */
  private readonly accepted = new Map<number, Set<Connection>>();

  constructor(
    private readonly real: Network,
    private readonly ports: { readonly clock: Clock; readonly timers: Timers },
  ) {}

  /** Binds a port on `host` for node `nodeId` and holds it until `close`. */
  async reserve(nodeId: number, host: string): Promise<Address> {
    const port: { entry?: HeldPort } = {};
    const listener = await this.real.listen({ host, port: 0 }, (connection) =>
      this.deliver(port.entry, connection),
    );
    const entry: HeldPort = { nodeId, address: listener.address, listener, route: undefined };
    port.entry = entry;
    this.held.set(addressKey(listener.address), entry);
    return listener.address;
  }

  /**
   * Closes node `nodeId`'s ports while it is stopped, so that a client connecting meets a
   * refused connection, as with a stopped process.
   */
  async release(nodeId: number): Promise<void> {
    const ports = [...this.held.values()].filter((port) => port.nodeId === nodeId);
    await Promise.all(
      ports.map(async (port) => {
        const listener = port.listener;
        port.listener = undefined;
        await listener?.close();
      }),
    );
  }

  /** Binds node `nodeId`'s ports again, on the same addresses, before it starts again. */
  async rebind(nodeId: number): Promise<void> {
    for (const port of this.held.values()) {
      if (port.nodeId !== nodeId || port.listener !== undefined) continue;
      port.listener = await this.real.listen(port.address, (connection) =>
        this.deliver(port, connection),
      );
    }
  }

  /** The network node `nodeId` runs on. */
  forNode(nodeId: number): Network {
    return {
      listen: async (address, onConnection) => this.listenFor(nodeId, address, onConnection),
      connect: async (address) => this.connectFrom(nodeId, address),
    };
  }

  /** Cuts every link of `nodeId` to the other nodes, and refuses new ones until `heal`. */
  partition(nodeId: number): void {
    this.isolated.add(nodeId);
    for (const link of this.links) {
      if (link.from === nodeId || link.to === nodeId) link.connection.destroy(partitioned());
    }
  }

  /** Slows the link between `a` and `b` by `delayMs` each way (0 ends it). */
  slow(a: number, b: number, delayMs: number): void {
    if (delayMs > 0) this.delays.set(linkKey(a, b), delayMs);
    else this.delays.delete(linkKey(a, b));
  }

  /** Ends every partition and every slowed link. */
  heal(): void {
    this.isolated.clear();
    this.delays.clear();
  }

  /** Ends every connection node `nodeId` opened or accepted (after the node stopped). */
  disconnect(nodeId: number): void {
    for (const link of this.links) {
      if (link.from === nodeId) link.connection.destroy();
    }
    for (const connection of this.accepted.get(nodeId) ?? []) connection.destroy();
    this.accepted.delete(nodeId);
  }

  /** Closes every held port. */
  async close(): Promise<void> {
    const ports = [...this.held.values()];
    this.held.clear();
    await Promise.all(ports.map((port) => port.listener?.close()));
  }

  private deliver(port: HeldPort | undefined, connection: Connection): void {
    const route = port?.route;
    if (port === undefined || route === undefined) {
      connection.destroy();
      return;
    }
    const open = this.accepted.get(port.nodeId) ?? new Set<Connection>();
    this.accepted.set(port.nodeId, open);
    open.add(connection);
    route(whenClosed(connection, () => open.delete(connection)));
  }

  private async listenFor(
    nodeId: number,
    address: Address,
    onConnection: (connection: Connection) => void,
  ): Promise<Listener> {
    const port = this.held.get(addressKey(address));
    if (port === undefined || port.nodeId !== nodeId) {
      return this.real.listen(address, onConnection);
    }
    port.route = onConnection;
    return {
      address: port.address,
      close: async () => {
        if (port.route === onConnection) port.route = undefined;
      },
    };
  }

  private async connectFrom(from: number, address: Address): Promise<Connection> {
    const to = this.held.get(addressKey(address))?.nodeId;
    if (to === undefined || to === from) return this.real.connect(address);
    if (this.isolated.has(from) || this.isolated.has(to)) throw partitioned();
    const inner = await this.real.connect(address);
    // The partition may have begun while the connection opened.
    if (this.isolated.has(from) || this.isolated.has(to)) {
      inner.destroy();
      throw partitioned();
    }
    const delayed = new DelayedConnection(inner, this.ports, () => this.delayOf(from, to));
    const link: Link = { from, to, connection: delayed };
    this.links.add(link);
    return whenClosed(delayed, () => this.links.delete(link));
  }

  private delayOf(a: number, b: number): number {
    return this.delays.get(linkKey(a, b)) ?? 0;
  }
}

function partitioned(): Error {
  return Object.assign(new Error("connection refused: the nodes are partitioned"), {
    code: "ECONNREFUSED",
  });
}

/** `connection`, calling `onClose` once it ends (before its own handler hears of it). */
function whenClosed(connection: Connection, onClose: () => void): Connection {
  return {
    get id() {
      return connection.id;
    },
    get localAddress() {
      return connection.localAddress;
    },
    get remoteAddress() {
      return connection.remoteAddress;
    },
    attach: (handlers: ConnectionHandlers) =>
      connection.attach({
        ...handlers,
        close: (error) => {
          onClose();
          handlers.close(error);
        },
      }),
    write: (data) => connection.write(data),
    pauseReading: () => connection.pauseReading(),
    resumeReading: () => connection.resumeReading(),
    close: () => connection.close(),
    destroy: (error) => connection.destroy(error),
  };
}
