/**
 * Connections to many nodes, shared by whoever talks to them (the Raft driver to the other
 * voters, brokers to the controller and to partition leaders, the command line). A node is
 * named by id, once its address is known, or by address alone; each (node, address) pair has
 * its own connection, so a node that moves to a new address gets a fresh one.
 */
import type { NodeId } from "../common/index.js";
import type { Address } from "../ports/index.js";
import type { ApiCodec } from "../protocol/index.js";
import { clientOptions, type ClientOptions } from "./client-options.js";
import type { ClientResult } from "./client-result.js";
import { ClientConnection, type ClientPorts } from "./client-connection.driver.js";
import type { RequestBody, RequestOptions } from "./pending-request.js";

/** Where a request goes: a node whose address was set, or an address. */
export type ClientTarget = NodeId | Address;

/** `host:port`, with brackets around an IPv6 host. */
export function formatAddress(address: Address): string {
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  return `${host}:${address.port}`;
}

/** A set of client connections keyed by node id and address. */
export class ClientPool {
  private readonly options: ClientOptions;
  private readonly addresses = new Map<NodeId, Address>();
  private readonly connections = new Map<string, ClientConnection>();
  private isClosed = false;

  constructor(
    private readonly ports: ClientPorts,
    options: Partial<ClientOptions> = {},
  ) {
    this.options = clientOptions(options);
  }

  /**
   * Records where node `nodeId` listens. A changed address closes the connection to the old
   * one: its waiting requests fail with `disconnected` and later ones go to the new address.
   */
  setNodeAddress(nodeId: NodeId, address: Address): void {
    const known = this.addresses.get(nodeId);
    if (known !== undefined && formatAddress(known) === formatAddress(address)) return;
    if (known !== undefined) this.dropConnection(nodeKey(nodeId, known));
    this.addresses.set(nodeId, { host: address.host, port: address.port });
  }

  /** Forgets node `nodeId` and closes its connection. */
  removeNode(nodeId: NodeId): void {
    const known = this.addresses.get(nodeId);
    if (known === undefined) return;
    this.dropConnection(nodeKey(nodeId, known));
    this.addresses.delete(nodeId);
  }

  addressOf(nodeId: NodeId): Address | undefined {
    return this.addresses.get(nodeId);
  }

  /**
   * Sends a request to `target` at the highest version both sides support within the options'
   * range. Resolves to the response or a failure; never rejects.
   */
  send<Request extends object, Response extends object>(
    target: ClientTarget,
    api: ApiCodec<Request, Response>,
    body: RequestBody<Request>,
    options: RequestOptions = {},
  ): Promise<ClientResult<Response>> {
    if (typeof target === "number" && !this.addresses.has(target)) {
      return Promise.resolve({ kind: "unknownNode", nodeId: target });
    }
    return this.connectionFor(target).send(api, body, options);
  }

  /** Closes every connection; waiting requests fail and later sends fail at once. */
  close(): void {
    this.isClosed = true;
    for (const connection of this.connections.values()) connection.close();
    this.connections.clear();
  }

  private connectionFor(target: ClientTarget): ClientConnection {
    const address = typeof target === "number" ? this.addresses.get(target) : target;
    if (address === undefined) throw new RangeError(`no address for node ${String(target)}`);
    const key = typeof target === "number" ? nodeKey(target, address) : formatAddress(address);
    let connection = this.connections.get(key);
    if (connection === undefined) {
      connection = new ClientConnection(address, this.ports, this.options);
      // A closed pool still answers every send, with `clientClosed`, through a closed connection.
      if (this.isClosed) connection.close();
      else this.connections.set(key, connection);
    }
    return connection;
  }

  private dropConnection(key: string): void {
    this.connections.get(key)?.close();
    this.connections.delete(key);
  }
}

function nodeKey(nodeId: NodeId, address: Address): string {
  return `${nodeId}@${formatAddress(address)}`;
}

/**
 * Opens a connection to `address`, runs `action` with it, and closes it whatever happens: the
 * command line's one-shot use of the client.
 */
export async function withConnection<T>(
  address: Address,
  ports: ClientPorts,
  action: (connection: ClientConnection) => Promise<T>,
  options: Partial<ClientOptions> = {},
): Promise<T> {
  const connection = new ClientConnection(address, ports, clientOptions(options));
  try {
    return await action(connection);
  } finally {
    connection.close();
  }
}
