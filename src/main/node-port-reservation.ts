/**
 * The node's Kafka listeners (`listeners`), bound before anything else starts (`sluice start`
 * binds its HTTP endpoint, `sluice.http.listener`, before that, with `bindOrExplain` too). A
 * node that cannot have one of them refuses to start with a one-line message naming the address
 * and the key to change, before it has read, formatted or written its dirs. A bound listener is
 * handed to the part that serves it when that part starts (the controller listener, the
 * broker's client listeners once unfenced), as Kafka's SocketServer binds its acceptors early
 * and enables request processing later; until then a connection to it is closed at once, as if
 * nothing listened, and clients retry.
 */
import type {
  Address,
  Connection,
  Listener,
  Network,
  TlsClientSettings,
  TlsListenerOptions,
} from "../ports/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { NodeStartError } from "./node-types.js";

/** Where a bound Kafka listener's connections go; nowhere until a part serves it. */
interface ConnectionRoute {
  to?: (connection: Connection) => void;
}

/** One bound Kafka listener, waiting for the part that serves it. */
interface HeldListener {
  readonly listener: Listener;
  readonly route: ConnectionRoute;
}

/** The Kafka listeners a node holds from the beginning of its start. */
export class PortReservation implements Network {
  private isReleased = false;

  private constructor(
    private readonly network: Network,
    /** Bound Kafka listeners not handed out yet, by configured address (host:port). */
    private readonly held: Map<string, HeldListener[]>,
  ) {}

  /** Binds every Kafka listener of `config`; throws NodeStartError naming the one that fails. */
  static async reserve(
    network: Network,
    config: NodeConfig,
    tlsOf: (listenerName: string) => TlsListenerOptions | undefined = () => undefined,
  ): Promise<PortReservation> {
    const held = new Map<string, HeldListener[]>();
    const bound: Listener[] = [];
    try {
      for (const wanted of config.listeners) {
        const route: ConnectionRoute = {};
        const listener = await bindOrExplain(
          { address: wanted, purpose: `listener ${wanted.name}`, key: "listeners" },
          () =>
            network.listen(
              wanted,
              (connection) =>
                route.to === undefined ? connection.destroy() : route.to(connection),
              tlsOf(wanted.name),
            ),
        );
        bound.push(listener);
        const key = addressKey(wanted);
        held.set(key, [...(held.get(key) ?? []), { listener, route }]);
      }
      return new PortReservation(network, held);
    } catch (error) {
      await Promise.all(bound.map((listener) => listener.close()));
      throw error;
    }
  }

  /**
   * Serves `address` with `onConnection`: the listener reserved there when there is one not
   * handed out yet, otherwise a new one.
   */
  async listen(
    address: Address,
    onConnection: (connection: Connection) => void,
    options?: TlsListenerOptions,
  ): Promise<Listener> {
    const waiting = this.held.get(addressKey(address));
    const entry = waiting?.shift();
    // A reserved listener was bound with its listener's TLS settings already.
    if (entry === undefined) return this.network.listen(address, onConnection, options);
    entry.route.to = onConnection;
    return entry.listener;
  }

  connect(address: Address, options?: { readonly tls?: TlsClientSettings }): Promise<Connection> {
    return this.network.connect(address, options);
  }

  /** Closes the listeners no part took over; idempotent. */
  async releaseUnused(): Promise<void> {
    if (this.isReleased) return;
    this.isReleased = true;
    const unused = [...this.held.values()].flat();
    this.held.clear();
    await Promise.all(unused.map((entry) => entry.listener.close()));
  }
}

function addressKey(address: Address): string {
  return `${address.host}:${address.port}`;
}

/** Binds with `bind`; a failure becomes a NodeStartError naming the address and the key. */
export async function bindOrExplain<T>(
  what: { readonly address: Address; readonly purpose: string; readonly key: string },
  bind: () => Promise<T>,
): Promise<T> {
  try {
    return await bind();
  } catch (cause) {
    const { address, purpose, key } = what;
    const where = `${address.host}:${address.port}`;
    throw new NodeStartError(
      `cannot listen on ${where} for ${purpose}: ${reasonOf(cause)}; set ${key} to another ` +
        "address",
      { cause },
    );
  }
}

/** Why binding failed, in words, from the system error's code. */
function reasonOf(cause: unknown): string {
  const code = typeof cause === "object" && cause !== null ? Reflect.get(cause, "code") : undefined;
  switch (code) {
    case "EADDRINUSE":
      return "the address is in use (by another node or process)";
    case "EADDRNOTAVAIL":
      return "the host is not an address of this machine";
    case "EACCES":
      return "the port needs privileges this process does not have";
    default:
      return cause instanceof Error ? cause.message : String(cause);
  }
}
