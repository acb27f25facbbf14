/**
 * The typed configuration of a node, built from validated values once the cross-key rules of
 * Kafka's KafkaConfig for KRaft hold: roles, node id, quorum, listeners, log dirs and the
 * precedence of the retention and roll keys.
 */
import { brokerId, type NodeId } from "../../common/index.js";
import {
  parseEach,
  parseHostPort,
  parseVoter,
  type HostPort,
  type VoterAddress,
} from "./addresses.js";
import type { ConfigProblem } from "./config-types.js";
import type { ConfigValues } from "./config-values.js";
import { parseConnectionOverrides } from "./connection-overrides.js";
import { groupSettingsOf, type GroupSettings } from "./group-settings.js";
import { resolveListeners, type ListenerSettings, type Roles } from "./listener-rules.js";
import {
  STANDARD_AUTHORIZER,
  superUsersOf,
  type AuthorizerSettings,
} from "./definitions-authorizer.js";
import { checkControllerScram, securityOf, type SecuritySettings } from "./security-settings.js";
import { logSettings, type LogSettings } from "./log-settings.js";
import { replicationSettingsOf, type ReplicationSettings } from "./replication-settings.js";

export type { SecuritySettings };

export type ProcessRole = "broker" | "controller";

/** How this node finds and takes part in the controller quorum. */
export interface QuorumSettings {
  /** The static voters (controller.quorum.voters); empty with a dynamic quorum. */
  readonly voters: readonly VoterAddress[];
  readonly bootstrapServers: readonly HostPort[];
  readonly electionTimeoutMs: number;
  readonly fetchTimeoutMs: number;
  readonly electionBackoffMaxMs: number;
  readonly appendLingerMs: number;
  readonly requestTimeoutMs: number;
  readonly retryBackoffMs: number;
}

/** A node's whole configuration, typed. `values` keeps every key with its source. */
export interface NodeConfig extends Roles, ListenerSettings {
  readonly processRoles: readonly ProcessRole[];
  /** Undefined only on a broker-only node that will be given an id by the controller. */
  readonly nodeId: NodeId | undefined;
  readonly quorum: QuorumSettings;
  readonly log: LogSettings;
  /** The group coordinator's keys (group.* and offsets.*). */
  readonly group: GroupSettings;
  readonly brokerHeartbeatIntervalMs: number;
  readonly brokerSessionTimeoutMs: number;
  readonly numPartitions: number;
  readonly defaultReplicationFactor: number;
  readonly minInsyncReplicas: number;
  readonly autoCreateTopicsEnable: boolean;
  /** `fetch.max.bytes`: the broker's bound on one fetch response. */
  readonly fetchMaxBytes: number;
  readonly uncleanLeaderElectionEnable: boolean;
  readonly replicaLagTimeMaxMs: number;
  readonly replicaHighWatermarkCheckpointIntervalMs: number;
  readonly replication: ReplicationSettings;
  readonly autoLeaderRebalanceEnable: boolean;
  readonly leaderImbalancePerBrokerPercentage: number;
  readonly leaderImbalanceCheckIntervalSeconds: number;
  readonly socketRequestMaxBytes: number;
  readonly connectionsMaxIdleMs: number;
  readonly queuedMaxRequests: number;
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
  /** `max.connections.per.ip.overrides` by lower-case IP address. */
  readonly maxConnectionsPerIpOverrides: ReadonlyMap<string, number>;
  /** `queued.max.request.bytes`; -1 or 0 is no bound. */
  readonly queuedMaxRequestBytes: number;
  readonly messageMaxBytes: number;
  /** `metadata.log.segment.bytes`, at least `metadata.log.segment.min.bytes`. */
  readonly metadataLogSegmentBytes: number;
  /** Sluice's HTTP endpoint (sluice.http.listener). */
  readonly httpListener: HostPort;
  readonly security: SecuritySettings;
  /** The ACL authorizer, when `authorizer.class.name` names one. */
  readonly authorizer: AuthorizerSettings | undefined;
  /** `sluice.metrics.partition.level.enable`: families with a series per partition. */
  readonly partitionLevelMetricsEnable: boolean;
  readonly values: ConfigValues;
}

/** The typed configuration, or every rule the values break. */
export type NodeConfigResult =
  | { readonly kind: "valid"; readonly config: NodeConfig }
  | { readonly kind: "invalid"; readonly problems: readonly ConfigProblem[] };

/** Applies the cross-key rules to `values` and builds the typed configuration. */
export function buildNodeConfig(values: ConfigValues): NodeConfigResult {
  const problems: ConfigProblem[] = [];
  const problem = (key: string, message: string): void => {
    problems.push({ key, source: values.source(key), message });
  };
  const processRoles = values.list("process.roles") as readonly ProcessRole[];
  const roles = {
    isBroker: processRoles.includes("broker"),
    isController: processRoles.includes("controller"),
  };
  if (processRoles.length === 0) problem("process.roles", "must be broker, controller, or both");
  const nodeId = checkNodeId(values, roles, problem);
  const quorum = quorumSettings(values, roles, nodeId, problem);
  const listeners = processRoles.length === 0 ? undefined : resolveListeners(values, roles);
  if (listeners !== undefined && !listeners.ok) problems.push(...listeners.problems);
  const log = logSettings(values, problem);
  checkMetadataLogSegment(values, problem);
  checkSocketServer(values, problem);
  const security =
    listeners?.ok === true ? securityOf(values, listeners.value, problems) : undefined;
  const quorumSize = Math.max(quorum.voters.length, quorum.bootstrapServers.length);
  if (roles.isController && security !== undefined && quorumSize > 1) {
    checkControllerScram(security.controller, problem);
  }
  if (
    problems.length > 0 ||
    listeners === undefined ||
    !listeners.ok ||
    log === undefined ||
    security === undefined
  ) {
    return { kind: "invalid", problems };
  }
  const config: NodeConfig = {
    processRoles,
    ...roles,
    nodeId: nodeId === undefined ? undefined : brokerId(nodeId),
    quorum,
    ...listeners.value,
    log,
    group: groupSettingsOf(values),
    replication: replicationSettingsOf(values),
    ...plainSettings(values),
    security,
    authorizer: authorizerSettingsOf(values),
    values,
  };
  return { kind: "valid", config };
}

/** Kafka's KafkaMetadataLog refuses a metadata segment size below the floor. */
function checkMetadataLogSegment(
  values: ConfigValues,
  problem: (key: string, message: string) => void,
): void {
  const minimum = values.number("metadata.log.segment.min.bytes");
  if (values.number("metadata.log.segment.bytes") < minimum) {
    problem(
      "metadata.log.segment.bytes",
      `must be at least ${minimum} (metadata.log.segment.min.bytes)`,
    );
  }
}

/** Kafka's KafkaConfig rules between the socket server's keys. */
function checkSocketServer(
  values: ConfigValues,
  problem: (key: string, message: string) => void,
): void {
  const queuedMaxRequestBytes = values.number("queued.max.request.bytes");
  const socketRequestMaxBytes = values.number("socket.request.max.bytes");
  if (queuedMaxRequestBytes > 0 && queuedMaxRequestBytes < socketRequestMaxBytes) {
    problem(
      "queued.max.request.bytes",
      `must be at least socket.request.max.bytes (${socketRequestMaxBytes}), or -1`,
    );
  }
  const overrides = parseConnectionOverrides(values.string("max.connections.per.ip.overrides"));
  if (values.number("max.connections.per.ip") === 0 && overrides.ok && overrides.value.size === 0) {
    problem("max.connections.per.ip", "may be 0 only with max.connections.per.ip.overrides");
  }
}

function checkNodeId(
  values: ConfigValues,
  roles: Roles,
  problem: (key: string, message: string) => void,
): number | undefined {
  const nodeId = values.number("node.id");
  // Kafka requires node.id on every KRaft node; Sluice lets a broker-only node leave it out
  // and be given one by the controller on its first registration.
  if (nodeId < 0 && roles.isController) problem("node.id", "is required on a controller");
  return nodeId < 0 ? undefined : nodeId;
}

function quorumSettings(
  values: ConfigValues,
  roles: Roles,
  nodeId: number | undefined,
  problem: (key: string, message: string) => void,
): QuorumSettings {
  const voters = parseEach(values.list("controller.quorum.voters"), parseVoter);
  const bootstrap = parseEach(values.list("controller.quorum.bootstrap.servers"), (text) =>
    parseHostPort(text),
  );
  const voterList = voters.ok ? voters.value : [];
  const bootstrapServers = bootstrap.ok ? bootstrap.value : [];
  if (voterList.length === 0 && bootstrapServers.length === 0) {
    problem(
      "controller.quorum.voters",
      "or controller.quorum.bootstrap.servers must name the controllers in KRaft mode",
    );
  }
  const ids = voterList.map((voter) => voter.nodeId);
  if (new Set(ids).size !== ids.length)
    problem("controller.quorum.voters", "names a voter id twice");
  if (roles.isController && nodeId !== undefined && voterList.length > 0 && !ids.includes(nodeId)) {
    problem("controller.quorum.voters", `must include this controller's node.id ${nodeId}`);
  }
  return {
    voters: voterList,
    bootstrapServers,
    electionTimeoutMs: values.number("controller.quorum.election.timeout.ms"),
    fetchTimeoutMs: values.number("controller.quorum.fetch.timeout.ms"),
    electionBackoffMaxMs: values.number("controller.quorum.election.backoff.max.ms"),
    appendLingerMs: values.number("controller.quorum.append.linger.ms"),
    requestTimeoutMs: values.number("controller.quorum.request.timeout.ms"),
    retryBackoffMs: values.number("controller.quorum.retry.backoff.ms"),
  };
}

/** The settings that are a key's value as it is. */
function plainSettings(values: ConfigValues) {
  const http = parseHostPort(values.string("sluice.http.listener"));
  return {
    brokerHeartbeatIntervalMs: values.number("broker.heartbeat.interval.ms"),
    brokerSessionTimeoutMs: values.number("broker.session.timeout.ms"),
    numPartitions: values.number("num.partitions"),
    defaultReplicationFactor: values.number("default.replication.factor"),
    minInsyncReplicas: values.number("min.insync.replicas"),
    autoCreateTopicsEnable: values.boolean("auto.create.topics.enable"),
    fetchMaxBytes: values.number("fetch.max.bytes"),
    uncleanLeaderElectionEnable: values.boolean("unclean.leader.election.enable"),
    replicaLagTimeMaxMs: values.number("replica.lag.time.max.ms"),
    replicaHighWatermarkCheckpointIntervalMs: values.number(
      "replica.high.watermark.checkpoint.interval.ms",
    ),
    autoLeaderRebalanceEnable: values.boolean("auto.leader.rebalance.enable"),
    leaderImbalancePerBrokerPercentage: values.number("leader.imbalance.per.broker.percentage"),
    leaderImbalanceCheckIntervalSeconds: values.number("leader.imbalance.check.interval.seconds"),
    socketRequestMaxBytes: values.number("socket.request.max.bytes"),
    connectionsMaxIdleMs: values.number("connections.max.idle.ms"),
    queuedMaxRequests: values.number("queued.max.requests"),
    maxConnections: values.number("max.connections"),
    maxConnectionsPerIp: values.number("max.connections.per.ip"),
    maxConnectionsPerIpOverrides: overridesOf(values),
    queuedMaxRequestBytes: values.number("queued.max.request.bytes"),
    messageMaxBytes: values.number("message.max.bytes"),
    metadataLogSegmentBytes: values.number("metadata.log.segment.bytes"),
    // The validator has already accepted the text, so the fallback is never used.
    httpListener: http.ok ? http.value : { host: "127.0.0.1", port: 9644 },
    partitionLevelMetricsEnable: values.boolean("sluice.metrics.partition.level.enable"),
  };
}

function overridesOf(values: ConfigValues): ReadonlyMap<string, number> {
  const parsed = parseConnectionOverrides(values.string("max.connections.per.ip.overrides"));
  // The validator has already accepted the text, so the fallback is never used.
  return parsed.ok ? parsed.value : new Map();
}

function authorizerSettingsOf(values: ConfigValues): AuthorizerSettings | undefined {
  if (values.string("authorizer.class.name") !== STANDARD_AUTHORIZER) return undefined;
  return {
    superUsers: superUsersOf(values.string("super.users")),
    allowEveryoneIfNoAclFound: values.boolean("allow.everyone.if.no.acl.found"),
  };
}
