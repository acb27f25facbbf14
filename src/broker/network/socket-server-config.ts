import { assert } from "../../common/index.js";
import { FRAME_BYTES_MAX_DEFAULT } from "../../protocol/index.js";

/**
 * The limits of the broker's connection layer, named after Kafka's config keys where Kafka has
 * one.
 */
export interface SocketServerConfig {
  /** `socket.request.max.bytes`: the largest request frame; a larger one closes the connection. */
  readonly socketRequestMaxBytes: number;
  /**
   * Requests of one connection taken up and not yet answered (answered = response written, or
   * no response due). At the limit the connection stops reading until one is answered, so a
   * client that pipelines without bound costs bounded memory. Kafka reads one request per
   * connection at a time (it mutes the channel until the response is sent); Sluice handles up
   * to this many concurrently and still answers in request order.
   */
  readonly queuedMaxRequestsPerConnection: number;
  /**
   * `queued.max.requests`: requests taken up and not yet handled over all of the server's
   * connections, as Kafka bounds its RequestChannel queue; at the limit connections stop reading,
   * save to take up one request on a connection with none in flight (see QueuedRequests).
   */
  readonly queuedMaxRequests: number;
  /**
   * `queued.max.request.bytes`: bytes of request frames being read or waiting to be taken up,
   * over all of the server's connections (see RequestMemoryPool); -1 or 0: no bound.
   */
  readonly queuedMaxRequestBytes: number;
  /**
   * `connections.max.idle.ms`: a connection with no traffic and nothing in flight is closed;
   * negative: never, as in Kafka.
   */
  readonly connectionsMaxIdleMs: number;
  /**
   * `max.connections`: open connections over all listeners. Kafka blocks its acceptor at the
   * limit; the Network port cannot hold a connection back, so one beyond the limit is closed at
   * once.
   */
  readonly maxConnections: number;
  /** `max.connections.per.ip`: open connections from one host; one more is closed at once. */
  readonly maxConnectionsPerIp: number;
  /** `max.connections.per.ip.overrides`: the per-host limit for the hosts named, by address. */
  readonly maxConnectionsPerIpOverrides: ReadonlyMap<string, number>;
}

/** Kafka's defaults, and 100 requests in flight per connection. */
export const DEFAULT_SOCKET_SERVER_CONFIG: SocketServerConfig = Object.freeze({
  socketRequestMaxBytes: FRAME_BYTES_MAX_DEFAULT,
  queuedMaxRequestsPerConnection: 100,
  queuedMaxRequests: 500,
  queuedMaxRequestBytes: -1,
  connectionsMaxIdleMs: 600_000,
  maxConnections: 2_147_483_647,
  maxConnectionsPerIp: 2_147_483_647,
  maxConnectionsPerIpOverrides: new Map(),
});

/** The defaults with `overrides` applied, checked. */
export function socketServerConfig(
  overrides: Partial<SocketServerConfig> = {},
): SocketServerConfig {
  const config = { ...DEFAULT_SOCKET_SERVER_CONFIG, ...overrides };
  assert(Number.isInteger(config.socketRequestMaxBytes), "socketRequestMaxBytes is an integer");
  assert(config.socketRequestMaxBytes >= 0, "socketRequestMaxBytes is not negative");
  assert(Number.isInteger(config.queuedMaxRequestsPerConnection), "queued max is an integer");
  assert(config.queuedMaxRequestsPerConnection >= 1, "at least one request in flight");
  assert(Number.isInteger(config.queuedMaxRequests), "queuedMaxRequests is an integer");
  assert(config.queuedMaxRequests >= 1, "at least one request queued");
  assert(Number.isSafeInteger(config.queuedMaxRequestBytes), "queuedMaxRequestBytes is an integer");
  // Kafka's KafkaConfig: a bounded pool holds at least one frame of the largest size.
  const isPoolBounded = config.queuedMaxRequestBytes > 0;
  assert(
    !isPoolBounded || config.queuedMaxRequestBytes >= config.socketRequestMaxBytes,
    "queuedMaxRequestBytes is at least socketRequestMaxBytes",
  );
  assert(config.connectionsMaxIdleMs !== 0, "connectionsMaxIdleMs is not 0");
  assert(Number.isInteger(config.maxConnections), "maxConnections is an integer");
  assert(config.maxConnections >= 0, "maxConnections is not negative");
  assert(Number.isInteger(config.maxConnectionsPerIp), "maxConnectionsPerIp is an integer");
  assert(config.maxConnectionsPerIp >= 0, "maxConnectionsPerIp is not negative");
  for (const limit of config.maxConnectionsPerIpOverrides.values()) {
    assert(Number.isInteger(limit) && limit >= 0, "a per-host override is a natural number");
  }
  return config;
}
