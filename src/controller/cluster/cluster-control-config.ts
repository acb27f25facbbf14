/**
 * The settings the membership controls read: the broker session timeout that ends a silent
 * broker's session, and where controller-assigned broker ids start.
 */

/** Settings of broker membership, from the controller's static config. */
export interface ClusterControlConfig {
  /** `broker.session.timeout.ms`: a broker silent this long is fenced (Kafka's default 9000). */
  readonly sessionTimeoutMs: number;
  /**
   * Where assigned ids start (1000; not a configuration key): a broker that registers without an
   * id (a Sluice extension) gets the lowest unused id at or above this. Ids below it stay for
   * brokers configured with `node.id`.
   */
  readonly brokerIdBase: number;
}

/** Kafka's default session timeout and Sluice's default base for assigned ids. */
export const DEFAULT_CLUSTER_CONTROL_CONFIG: ClusterControlConfig = {
  sessionTimeoutMs: 9000,
  brokerIdBase: 1000,
};
