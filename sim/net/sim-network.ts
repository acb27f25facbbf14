import type { Address, Connection, Listener, Network } from "../../src/ports/index.js";
import type { SimNode } from "../node.js";
import type { Scheduler } from "../scheduler.js";
import { SimNetworkError } from "./errors.js";
import { LinkTable, type LinkSettings } from "./links.js";
import { MessageTransport, type MessageHandler, type MessageStats } from "./messages.js";
import { Pipe } from "./pipe.js";
import { SimConnection, type ConnectionHost } from "./sim-connection.js";

/** Options of a SimNetwork. */
export interface SimNetworkOptions {
  /** Settings of every link without its own (default: reliable, 1 to 5 ms). */
  readonly links?: Partial<LinkSettings>;
  /** How long a connect across a cut link waits before ETIMEDOUT (default 1000 ms). */
  readonly connectTimeoutMs?: number;
  /** Undelivered bytes per connection end above which write returns false (default 64 KiB). */
  readonly sendBufferBytes?: number;
}

/** How many pipes may pile up before closed connections are forgotten. */
const pruneThreshold = 256;

interface ListenEntry {
  readonly node: string;
  readonly onConnection: (connection: Connection) => void;
}

/**
 * The simulated network: byte-stream connections between nodes (the Network port, per node
 * through `forNode`), and a message transport (`send`, `onMessage`). Addresses are (node name,
 * port). Link faults and partitions are set per ordered pair of nodes; see sim/README.md for
 * how each fault applies to streams and to messages. A node's crash resets its connections,
 * closes its listeners and removes its message handler.
 */
export class SimNetwork<M = unknown> implements ConnectionHost {
  readonly links: LinkTable;
  readonly sendBufferBytes: number;
  private readonly messages: MessageTransport<M>;
  private readonly connectTimeoutMs: number;
  private readonly listeners = new Map<string, ListenEntry>();
  private readonly connectionsByNode = new Map<string, Set<SimConnection>>();
  private readonly pipes = new Set<Pipe>();
  private readonly watchedNodes = new Set<string>();
  private readonly nextPortByNode = new Map<string, number>();
  private readonly pipeSenders = new Map<Pipe, SimConnection>();
  private nextConnectionNumber = 1;

  constructor(
    private readonly scheduler: Scheduler,
    options: SimNetworkOptions = {},
  ) {
    this.links = new LinkTable(scheduler.random.fork("network"));
    if (options.links !== undefined) this.links.configureDefaults(options.links);
    this.messages = new MessageTransport<M>(scheduler, this.links);
    this.connectTimeoutMs = options.connectTimeoutMs ?? 1000;
    this.sendBufferBytes = options.sendBufferBytes ?? 65536;
  }

  /** Counts of the message transport. */
  get messageStats(): MessageStats {
    return this.messages.stats;
  }

  /** The Network port as seen from `node`. */
  forNode(node: string): Network {
    this.watch(node);
    return {
      listen: (address, onConnection) => this.listen(node, address, onConnection),
      connect: (address) => this.connect(node, address),
    };
  }

  /** Sets the handler of messages to `node` (replacing an earlier one). */
  onMessage(node: string, handler: MessageHandler<M>): void {
    this.watch(node);
    this.messages.handle(node, handler);
  }

  /** Sends a message from `from` to `to` through the link's faults. */
  send(from: string, to: string, message: M): void {
    this.messages.send(from, to, message);
  }

  /** Changes the settings of every link, except what a link's own settings override. */
  configureAllLinks(settings: Partial<LinkSettings>): void {
    this.links.configureDefaults(settings);
  }

  /** Changes one link's settings (`from` → `to` only). */
  configureLink(from: string, to: string, settings: Partial<LinkSettings>): void {
    this.links.configure(from, to, settings);
  }

  /** Cuts `from` → `to` only: the other direction keeps working. */
  cut(from: string, to: string): void {
    this.scheduler.record(`net cut ${from}->${to}`);
    this.links.cut(from, to);
  }

  /** Cuts every link between the two groups, both ways. */
  partition(groupA: readonly string[], groupB: readonly string[]): void {
    for (const a of groupA) {
      for (const b of groupB) {
        this.cut(a, b);
        this.cut(b, a);
      }
    }
  }

  /** Heals `from` → `to`; what waited on connections that way then arrives. */
  heal(from: string, to: string): void {
    this.scheduler.record(`net heal ${from}->${to}`);
    this.links.heal(from, to);
    for (const pipe of this.pipes) if (pipe.from === from && pipe.to === to) pipe.resume();
  }

  /** Heals every cut. */
  healAll(): void {
    this.scheduler.record("net heal all");
    this.links.healAll();
    for (const pipe of this.pipes) pipe.resume();
  }

  /** Part of ConnectionHost. */
  later(node: SimNode, incarnation: number, callback: () => void): void {
    this.scheduler.schedule(0, callback, { node, incarnation, label: "tcp callback" });
  }

  /** Part of ConnectionHost. */
  shouldReset(from: string, to: string): boolean {
    return this.links.roll(from, to, "drop");
  }

  private listen(
    node: string,
    address: Address,
    onConnection: (connection: Connection) => void,
  ): Promise<Listener> {
    const port = address.port === 0 ? this.ephemeralPort(node) : address.port;
    const key = `${node}:${port}`;
    if (this.listeners.has(key)) {
      return Promise.reject(new SimNetworkError("EADDRINUSE", `${key} is in use`));
    }
    const entry: ListenEntry = { node, onConnection };
    this.listeners.set(key, entry);
    this.scheduler.record(`net listen ${key}`);
    return Promise.resolve({
      address: { host: node, port },
      close: () => {
        if (this.listeners.get(key) === entry) this.listeners.delete(key);
        return Promise.resolve();
      },
    });
  }

  private connect(from: string, address: Address): Promise<Connection> {
    const node = this.scheduler.node(from);
    const incarnation = node.incarnation;
    const to = address.host;
    const target = `${to}:${address.port}`;
    this.scheduler.record(`net connect ${from}->${target}`);
    return new Promise((resolve, reject) => {
      const answer = (error: SimNetworkError | undefined, connection?: Connection): void => {
        if (error !== undefined) reject(error);
        else if (connection !== undefined) resolve(connection);
      };
      const owner = { node, incarnation, label: `connect ${target}` };
      if (!this.scheduler.nodes().some((known) => known.name === to)) {
        this.scheduler.schedule(0, () => answer(new SimNetworkError("ENOTFOUND", to)), owner);
      } else if (this.links.isCut(from, to) || this.links.isCut(to, from)) {
        const timeout = new SimNetworkError("ETIMEDOUT", `connect ${target}`);
        this.scheduler.schedule(this.connectTimeoutMs, () => answer(timeout), owner);
      } else {
        const arrival = (): void => this.acceptConnection(from, incarnation, address, answer);
        this.scheduler.schedule(this.links.drawDelayMs(from, to), arrival, {
          label: `syn ${from}->${target}`,
        });
      }
    });
  }

  /** The connection request reached the target node: accept it or refuse it. */
  private acceptConnection(
    from: string,
    incarnation: number,
    address: Address,
    answer: (error: SimNetworkError | undefined, connection?: Connection) => void,
  ): void {
    const to = address.host;
    const client = this.scheduler.node(from);
    const owner = { node: client, incarnation, label: `connected ${to}:${address.port}` };
    const entry = this.listeners.get(`${to}:${address.port}`);
    const replyMs = this.links.drawDelayMs(to, from);
    if (entry === undefined || !this.scheduler.node(to).isUp) {
      const refused = new SimNetworkError("ECONNREFUSED", `${to}:${address.port}`);
      this.scheduler.schedule(replyMs, () => answer(refused), owner);
      return;
    }
    if (!client.isCurrent(incarnation)) return;
    const [clientEnd, serverEnd] = this.createPair(client, address);
    entry.onConnection(serverEnd);
    this.scheduler.schedule(replyMs, () => answer(undefined, clientEnd), owner);
  }

  private createPair(client: SimNode, address: Address): [SimConnection, SimConnection] {
    const server = this.scheduler.node(address.host);
    const number = this.nextConnectionNumber++;
    const clientAddress = { host: client.name, port: this.ephemeralPort(client.name) };
    const id = `${client.name}:${clientAddress.port}->${address.host}:${address.port}#${number}`;
    const clientEnd = new SimConnection(
      `${id}/client`,
      clientAddress,
      address,
      client,
      client.incarnation,
      this,
    );
    const serverEnd = new SimConnection(
      `${id}/server`,
      address,
      clientAddress,
      server,
      server.incarnation,
      this,
    );
    this.bindPipe(clientEnd, serverEnd);
    this.bindPipe(serverEnd, clientEnd);
    return [clientEnd, serverEnd];
  }

  /** Connects `sender`'s writes to `receiver`, and registers `sender` with its node. */
  private bindPipe(sender: SimConnection, receiver: SimConnection): void {
    const pipe = new Pipe(this.scheduler, this.links, sender.node.name, receiver.node.name, (s) => {
      receiver.receive(s);
      sender.onDelivered();
    });
    sender.bind(pipe);
    if (this.pipes.size >= pruneThreshold) this.prune();
    this.pipes.add(pipe);
    this.pipeSenders.set(pipe, sender);
    let connections = this.connectionsByNode.get(sender.node.name);
    if (connections === undefined) {
      connections = new Set();
      this.connectionsByNode.set(sender.node.name, connections);
    }
    connections.add(sender);
  }

  /** Forgets connections that closed and have nothing left to deliver. */
  private prune(): void {
    for (const [pipe, sender] of this.pipeSenders) {
      if (!sender.isClosed || pipe.bufferedSegments > 0) continue;
      this.pipes.delete(pipe);
      this.pipeSenders.delete(pipe);
      this.connectionsByNode.get(sender.node.name)?.delete(sender);
    }
  }

  private ephemeralPort(node: string): number {
    const port = this.nextPortByNode.get(node) ?? 49152;
    this.nextPortByNode.set(node, port + 1);
    return port;
  }

  /** Makes a crash of `node` reset its connections, close its listeners and forget it. */
  private watch(node: string): void {
    if (this.watchedNodes.has(node)) return;
    this.watchedNodes.add(node);
    this.scheduler.node(node).onCrash(() => {
      for (const connection of this.connectionsByNode.get(node) ?? []) connection.abandon();
      this.connectionsByNode.delete(node);
      for (const [key, entry] of this.listeners)
        if (entry.node === node) this.listeners.delete(key);
      this.messages.forget(node);
    });
  }
}
