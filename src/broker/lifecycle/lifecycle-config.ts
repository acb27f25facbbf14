/**
 * Settings of the broker's lifecycle with the controller, named after Kafka's config keys, and
 * the wait before the next communication after a failure.
 */

/** When the broker tells the controller it may be unfenced (heartbeat wantFence false). */
export type UnfenceReadiness =
  /** As soon as the controller says the broker has caught up with the metadata log. */
  | "atCatchUp"
  /**
   * Only once the node calls `setReadyToUnfence`, as Kafka's BrokerServer does after it has
   * applied the caught-up metadata to its replicas and loaded its logs.
   */
  | "explicit";

/** The lifecycle's settings. */
export interface BrokerLifecycleConfig {
  /** `broker.heartbeat.interval.ms`: the wait between heartbeats (Kafka's default 2000). */
  readonly heartbeatIntervalMs: number;
  /**
   * `initial.broker.registration.timeout.ms`: a broker not registered this long after starting
   * gives up and shuts down (Kafka's default 60000).
   */
  readonly initialRegistrationTimeoutMs: number;
  /**
   * How long a controlled shutdown waits for the controller's go-ahead before the broker stops
   * anyway: Kafka's BrokerServer waits five minutes.
   */
  readonly controlledShutdownTimeoutMs: number;
  /** The wait before the first retry after a failed communication; it doubles per failure. */
  readonly retryBackoffMs: number;
  readonly unfenceReadiness: UnfenceReadiness;
}

/** Settings of the manager beyond the pure lifecycle's. */
export interface BrokerLifecycleManagerConfig extends BrokerLifecycleConfig {
  /**
   * How long one registration or heartbeat may take, retries on other controllers included.
   * Kafka gives its heartbeat channel half of `broker.session.timeout.ms` (9000 / 2).
   */
  readonly communicationTimeoutMs: number;
  /**
   * `log.dir.failure.timeout.ms`: a broker that has not told the controller of a failed log dir
   * this long after the failure shuts down (Kafka's default 30000).
   */
  readonly logDirFailureTimeoutMs: number;
}

/** Kafka's defaults. */
export const DEFAULT_BROKER_LIFECYCLE_CONFIG: BrokerLifecycleConfig = {
  heartbeatIntervalMs: 2000,
  initialRegistrationTimeoutMs: 60_000,
  controlledShutdownTimeoutMs: 300_000,
  retryBackoffMs: 100,
  unfenceReadiness: "atCatchUp",
};

/** While the broker has not caught up, Kafka heartbeats every 10 ms to start quickly. */
export const CATCH_UP_HEARTBEAT_DELAY_MS = 10;
/** The first heartbeat after asking to shut down is answered "not yet"; the next comes soon. */
export const CONTROLLED_SHUTDOWN_FIRST_RETRY_DELAY_MS = 50;

/**
 * The wait after `failedAttempts` consecutive failures: `retryBackoffMs` doubled per earlier
 * failure, never more than the heartbeat interval. Kafka's current broker waits one interval
 * after every failure; the shorter first waits let a broker whose controller just failed over
 * find the new one at once, and the cap keeps a failing broker's heartbeats no rarer than a
 * healthy one's, so the session (`broker.session.timeout.ms`) never expires because of backoff.
 */
export function retryDelayMs(config: BrokerLifecycleConfig, failedAttempts: number): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 30);
  return Math.min(config.retryBackoffMs * 2 ** exponent, config.heartbeatIntervalMs);
}
