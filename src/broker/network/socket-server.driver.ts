/**
 * The server of the connection layer; this file owns one state machine, the server's (running,
 * stopped), described on SocketServer.
 */
import type {
  Address,
  Clock,
  Connection,
  Listener,
  Logger,
  MetricsSink,
  Network,
  Timer,
  Timers,
  TlsServerSettings,
} from "../../ports/index.js";
import type { RequestRouter } from "../router/request-router.driver.js";
import {
  PLAINTEXT_SECURITY,
  connectionPrincipal,
  isSaslProtocol,
  type ListenerSecurity,
  SaslSession,
  type SaslSessionPorts,
} from "../security/index.js";
import { BrokerConnection, type ConnectionHost } from "./broker-connection.driver.js";
import { IdleConnections } from "./idle-connections.js";
import { NetworkMetrics } from "./network-metrics.js";
import { QueuedRequests } from "./queued-requests.js";
import { RequestMemoryPool } from "./request-memory-pool.js";
import { socketServerConfig, type SocketServerConfig } from "./socket-server-config.js";

/** The ports the connection layer runs on. */
export interface SocketServerPorts {
  readonly network: Network;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly metrics: MetricsSink;
}

/** Options of a SocketServer. */
export interface SocketServerOptions {
  readonly config?: Partial<SocketServerConfig>;
  /**
   * Called when a handler broke an invariant (an AssertionError). The default rethrows it
   * outside any promise so that the process ends, as assertions are meant to; a simulation
   * passes its own to record the failure.
   */
  readonly onFatalError?: (error: unknown) => void;
  /** What SASL listeners authenticate with; required when a listener uses SASL. */
  readonly authentication?: Omit<SaslSessionPorts, "monotonicMs">;
}

/** How a listener secures its connections: the protocol's rules and, for TLS, its settings. */
export interface ListenerSecurityOptions {
  readonly security: ListenerSecurity;
  readonly tls?: TlsServerSettings | undefined;
}

/**
 * Kafka's SocketServer over the Network port: accepts connections on named listeners, counts
 * them against `max.connections` and `max.connections.per.ip` with its overrides (Kafka's
 * ConnectionQuotas), bounds the requests being handled by `queued.max.requests` and the bytes
 * of the requests being read by `queued.max.request.bytes`, closes idle ones with ONE timer
 * for all (armed for the quietest connection), and gives each connection to a BrokerConnection
 * that frames, routes and answers its requests. States: running → stopped; `close` stops the
 * listeners and closes every connection.
 */
export class SocketServer {
  readonly config: SocketServerConfig;
  readonly metrics: NetworkMetrics;
  private readonly connections = new Set<BrokerConnection>();
  private readonly connectionsPerHost = new Map<string, number>();
  private readonly queuedRequests: QueuedRequests;
  private readonly memoryPool: RequestMemoryPool;
  private readonly idle: IdleConnections<BrokerConnection>;
  private readonly listeners: Listener[] = [];
  private readonly listenersByName = new Map<string, Listener>();
  private readonly authentication: Omit<SaslSessionPorts, "monotonicMs"> | undefined;
  private readonly host: ConnectionHost;
  private idleTimer: { readonly timer: Timer; readonly deadlineMs: number } | undefined;
  private state: "running" | "stopped" = "running";

  constructor(
    private readonly ports: SocketServerPorts,
    router: RequestRouter,
    options: SocketServerOptions = {},
  ) {
    this.config = socketServerConfig(options.config);
    this.metrics = new NetworkMetrics(ports.metrics);
    this.idle = new IdleConnections(this.config.connectionsMaxIdleMs);
    this.queuedRequests = new QueuedRequests(this.config.queuedMaxRequests);
    this.memoryPool = new RequestMemoryPool(this.config.queuedMaxRequestBytes, (usedBytes) =>
      this.metrics.memoryPoolUsedBytes.set(usedBytes),
    );
    const onFatalError = options.onFatalError ?? rethrowOutsidePromises;
    this.authentication = options.authentication;
    this.host = {
      router,
      clock: ports.clock,
      timers: ports.timers,
      logger: ports.logger,
      metrics: this.metrics,
      config: this.config,
      queuedRequests: this.queuedRequests,
      memoryPool: this.memoryPool,
      touched: (connection) => this.touched(connection),
      closed: (connection) => this.forget(connection),
      fatal: onFatalError,
    };
    this.metrics.openConnections.set(0);
    this.metrics.memoryPoolUsedBytes.set(0);
  }

  /** How many connections are open. */
  get openConnectionCount(): number {
    return this.connections.size;
  }

  /** Requests taken up and not yet handled, over every connection. */
  get queuedRequestCount(): number {
    return this.queuedRequests.size;
  }

  /** The bytes of request frames held against `queued.max.request.bytes`. */
  get requestMemoryUsedBytes(): number {
    return this.memoryPool.usedBytes;
  }

  /** The open connections, in no particular order. */
  openConnections(): readonly BrokerConnection[] {
    return [...this.connections];
  }

  /**
   * Starts accepting on `address` for listener `listenerName`, plain or secured as `options`
   * say; resolves to the bound address.
   */
  async listen(
    listenerName: string,
    address: Address,
    options: ListenerSecurityOptions = { security: PLAINTEXT_SECURITY },
  ): Promise<Address> {
    const { security, tls } = options;
    const isTls = security.securityProtocol === "SSL" || security.securityProtocol === "SASL_SSL";
    if (isTls !== (tls !== undefined)) {
      throw new Error(`listener ${listenerName}: TLS settings must come with SSL or SASL_SSL`);
    }
    if (isSaslProtocol(security.securityProtocol) && this.authentication === undefined) {
      throw new Error(`listener ${listenerName}: SASL needs the server's authentication ports`);
    }
    const listener = await this.ports.network.listen(
      address,
      (connection) => this.accept(listenerName, security, connection),
      tls === undefined ? undefined : { tls },
    );
    this.listeners.push(listener);
    this.listenersByName.set(listenerName, listener);
    this.ports.logger.info("listening", { listener: listenerName, address: listener.address });
    return listener.address;
  }

  /** Stops accepting, closes every connection and the idle timer. */
  async close(): Promise<void> {
    if (this.state === "stopped") return;
    this.state = "stopped";
    this.idleTimer?.timer.cancel();
    this.idleTimer = undefined;
    const listeners = this.listeners.splice(0);
    this.listenersByName.clear();
    await Promise.all(listeners.map((listener) => listener.close()));
    for (const connection of [...this.connections]) {
      connection.close("shutdown", "the broker is stopping", "graceful");
    }
  }

  /**
   * Replaces the key and certificates of TLS listener `listenerName` for new connections
   * (KIP-226's dynamic update of `listener.name.<name>.ssl.*`). Throws when it is not a TLS
   * listener of this server or the settings do not load; the old ones stay then.
   */
  updateTls(listenerName: string, settings: TlsServerSettings): void {
    const listener = this.listenersByName.get(listenerName);
    if (listener?.updateTls === undefined) {
      throw new Error(`${listenerName} is not a TLS listener of this server`);
    }
    listener.updateTls(settings);
    this.ports.logger.info("TLS key and certificates updated", { listener: listenerName });
  }

  private accept(listenerName: string, security: ListenerSecurity, connection: Connection): void {
    if (this.state === "stopped") {
      connection.destroy();
      return;
    }
    const refusal = this.refusalOf(connection.remoteAddress.host);
    if (refusal !== undefined) {
      this.ports.logger.warn(`refusing connection: ${refusal.key} reached`, {
        listener: listenerName,
        remote: `${connection.remoteAddress.host}:${connection.remoteAddress.port}`,
        limit: refusal.limit,
      });
      this.metrics.connectionClosed(refusal.reason);
      connection.destroy();
      return;
    }
    const principal = connectionPrincipal(security, connection.tls?.peerSubject);
    if (principal === undefined) {
      // Kafka's SslPrincipalMapper fails the connection when no rule matches the subject.
      this.ports.logger.warn("refusing connection: no ssl.principal.mapping.rules entry matches", {
        listener: listenerName,
        subject: connection.tls?.peerSubject,
      });
      this.metrics.connectionClosed("authentication");
      connection.destroy();
      return;
    }
    const session = this.sessionFor(security);
    const authentication = { securityProtocol: security.securityProtocol, principal, session };
    const brokerConnection = new BrokerConnection(
      connection,
      listenerName,
      this.host,
      authentication,
    );
    this.connections.add(brokerConnection);
    const host = brokerConnection.remoteHost;
    this.connectionsPerHost.set(host, (this.connectionsPerHost.get(host) ?? 0) + 1);
    this.metrics.openConnections.set(this.connections.size);
    this.touched(brokerConnection);
    brokerConnection.start();
  }

  private sessionFor(security: ListenerSecurity): SaslSession | undefined {
    if (security.sasl === undefined || this.authentication === undefined) return undefined;
    const clock = this.ports.clock;
    const ports = { ...this.authentication, monotonicMs: () => clock.monotonicMs() };
    return new SaslSession(security.sasl, ports);
  }

  /**
   * Which limit a new connection from `host` would break. Kafka's ConnectionQuotas closes a
   * connection over the per-host limit at once; at `max.connections` its acceptor waits for a
   * slot, but the Network port cannot hold a connection back, so that one is closed too.
   */
  private refusalOf(host: string) {
    if (this.connections.size >= this.config.maxConnections) {
      return { key: "max.connections", limit: this.config.maxConnections, ...MAX_CONNECTIONS };
    }
    const override = this.config.maxConnectionsPerIpOverrides.get(normalHost(host));
    const limit = override ?? this.config.maxConnectionsPerIp;
    if ((this.connectionsPerHost.get(host) ?? 0) >= limit) {
      const key =
        override === undefined ? "max.connections.per.ip" : "max.connections.per.ip.overrides";
      return { key, limit, ...PER_IP };
    }
    return undefined;
  }

  private forget(connection: BrokerConnection): void {
    if (!this.connections.delete(connection)) return;
    this.queuedRequests.forget(connection);
    const host = connection.remoteHost;
    const count = (this.connectionsPerHost.get(host) ?? 1) - 1;
    if (count > 0) this.connectionsPerHost.set(host, count);
    else this.connectionsPerHost.delete(host);
    this.idle.remove(connection);
    this.metrics.openConnections.set(this.connections.size);
  }

  private touched(connection: BrokerConnection): void {
    // A negative connections.max.idle.ms keeps quiet connections open, as in Kafka.
    if (!connection.isOpen || this.config.connectionsMaxIdleMs < 0) return;
    this.idle.touch(connection, this.ports.clock.monotonicMs());
    if (this.idleTimer === undefined) this.armIdleTimer();
  }

  /** Arms the one idle timer for the quietest connection's deadline. */
  private armIdleTimer(): void {
    const deadlineMs = this.idle.nextDeadlineMs();
    if (deadlineMs === undefined || this.state === "stopped") return;
    const delayMs = Math.max(0, deadlineMs - this.ports.clock.monotonicMs());
    const timer = this.ports.timers.schedule(delayMs, () => this.onIdleTimer());
    this.idleTimer = { timer, deadlineMs };
  }

  private onIdleTimer(): void {
    this.idleTimer = undefined;
    const nowMs = this.ports.clock.monotonicMs();
    for (const connection of this.idle.idleAt(nowMs)) {
      // A connection waiting on its own requests (a long fetch) is quiet, not idle.
      if (connection.inFlightCount > 0) {
        this.idle.touch(connection, nowMs);
        continue;
      }
      const detail = `no traffic for ${this.config.connectionsMaxIdleMs} ms`;
      connection.close("idle", detail, "graceful");
    }
    this.armIdleTimer();
  }
}

const MAX_CONNECTIONS = { reason: "maxConnections" } as const;
const PER_IP = { reason: "maxConnectionsPerIp" } as const;

/**
 * A remote host as an override names it: an IPv4 peer of a dual-stack listener shows as an
 * IPv4-mapped IPv6 address, which is the IPv4 address.
 */
function normalHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.startsWith("::ffff:") && lower.includes(".") ? lower.slice(7) : lower;
}

function rethrowOutsidePromises(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}
