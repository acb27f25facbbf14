/**
 * What `startCluster` is asked for, and the properties of each of its nodes: the roles and ids,
 * listeners on ports the cluster holds, dirs in its folder, timings suited to tests, the topic
 * defaults, then the caller's settings for every node and for each one. Every value is an
 * ordinary config key, loaded as `sluice start --config` loads a file.
 */
import type { LogLevel } from "../../ports/index.js";
import type { NodeConfig } from "../config/node-config.js";
import { formatProblem } from "../config/config-types.js";
import { loadNodeConfig } from "../config/load-config.js";

/** A config value as a caller writes it; numbers and booleans are written as Kafka prints them. */
export type ConfigSetting = string | number | boolean;

/** Settings by Kafka config key. */
export type ConfigSettings = Readonly<Record<string, ConfigSetting>>;

export interface ClusterOptions {
  /**
   * Nodes that are both controller and broker (`process.roles=broker,controller`). Default 1
   * when neither `controllers` nor `brokers` is given, 0 otherwise.
   */
  readonly nodes?: number;
  /** Controller-only nodes, voters of the metadata quorum with the combined nodes. */
  readonly controllers?: number;
  /** Broker-only nodes. */
  readonly brokers?: number;
  /** Defaults of topics created without their own settings. */
  readonly topicDefaults?: TopicDefaults;
  /** Config keys for every node, over the cluster's own settings. */
  readonly configs?: ConfigSettings;
  /** Config keys for one node, by node id, over `configs`. */
  readonly nodeConfigs?: Readonly<Record<number, ConfigSettings>>;
  /**
   * The least severe log line the nodes write to stderr (default "off": none; a start that fails
   * rejects with its reason, and a node stopped by a fatal error keeps it in `fatalError`).
   */
  readonly logLevel?: LogLevel | "off";
  /**
   * Whether the nodes' syncs (fsync) reach the disk (default false: the data need not survive a
   * power cut of the machine, and a sync costs tens of milliseconds on a shared disk).
   */
  readonly durable?: boolean;
  /** The address every listener binds (default 127.0.0.1). */
  readonly host?: string;
  /** How long the start may take before it fails (default 30000 ms). */
  readonly startTimeoutMs?: number;
}

export interface TopicDefaults {
  /** num.partitions (default 1). */
  readonly partitions?: number;
  /** default.replication.factor (default 1). */
  readonly replicationFactor?: number;
  /** min.insync.replicas (default 1). */
  readonly minInsyncReplicas?: number;
  /** auto.create.topics.enable (default true). */
  readonly autoCreate?: boolean;
}

export type NodeRole = "combined" | "controller" | "broker";

/** One node as planned: its id and role. Ids are 1, 2, ... combined nodes first. */
export interface PlannedNode {
  readonly id: number;
  readonly role: NodeRole;
}

/** The nodes `options` ask for; throws a RangeError when they make no working cluster. */
export function planNodes(options: ClusterOptions): readonly PlannedNode[] {
  const hasSplitRoles = options.controllers !== undefined || options.brokers !== undefined;
  const counts: [NodeRole, number][] = [
    ["combined", options.nodes ?? (hasSplitRoles ? 0 : 1)],
    ["controller", options.controllers ?? 0],
    ["broker", options.brokers ?? 0],
  ];
  for (const [role, count] of counts) {
    if (!Number.isInteger(count) || count < 0) {
      throw new RangeError(`the count of ${role} nodes must be a whole number, got ${count}`);
    }
  }
  const planned: PlannedNode[] = [];
  for (const [role, count] of counts) {
    for (let index = 0; index < count; index++) planned.push({ id: planned.length + 1, role });
  }
  if (!planned.some((node) => node.role !== "broker")) {
    throw new RangeError("a cluster needs at least one controller (nodes or controllers)");
  }
  if (!planned.some((node) => node.role !== "controller")) {
    throw new RangeError("a cluster needs at least one broker (nodes or brokers)");
  }
  return planned;
}

/**
 * Timings for tests, on top of Kafka's defaults: a broker heartbeats every 50 ms, so that it is
 * unfenced as soon as it has caught up with the metadata log rather than at its next heartbeat
 * two seconds later, and a silent one is fenced after 2 s; the quorum elects its first leader
 * within 50-100 ms and a follower notices a lost leader after 500 ms; consumer groups rebalance at
 * once; the internal topics have 5 partitions (as Kafka's own test harness) on up to 3 brokers.
 */
function testTimings(brokerCount: number): Record<string, string> {
  const internalReplicas = String(Math.min(3, brokerCount));
  return {
    "broker.heartbeat.interval.ms": "50",
    "broker.session.timeout.ms": "2000",
    "controller.quorum.election.timeout.ms": "50",
    "controller.quorum.election.backoff.max.ms": "50",
    "controller.quorum.fetch.timeout.ms": "500",
    "controller.quorum.append.linger.ms": "1",
    "group.initial.rebalance.delay.ms": "0",
    "offsets.topic.num.partitions": "5",
    "offsets.topic.replication.factor": internalReplicas,
    "transaction.state.log.num.partitions": "5",
    "transaction.state.log.replication.factor": internalReplicas,
    "replica.fetch.backoff.ms": "100",
  };
}

function topicDefaultSettings(defaults: TopicDefaults | undefined): Record<string, string> {
  const settings: Record<string, string> = {};
  if (defaults?.partitions !== undefined) settings["num.partitions"] = String(defaults.partitions);
  if (defaults?.replicationFactor !== undefined) {
    settings["default.replication.factor"] = String(defaults.replicationFactor);
  }
  if (defaults?.minInsyncReplicas !== undefined) {
    settings["min.insync.replicas"] = String(defaults.minInsyncReplicas);
  }
  if (defaults?.autoCreate !== undefined) {
    settings["auto.create.topics.enable"] = String(defaults.autoCreate);
  }
  return settings;
}

/** Where one node listens and keeps its data. */
export interface NodePlace {
  readonly node: PlannedNode;
  readonly clientPort: number | undefined;
  readonly controllerPort: number | undefined;
  /** The partition log dir and the metadata log dir, apart so that one can fail alone. */
  readonly logDir: string;
  readonly metadataLogDir: string;
}

/** The properties of `place`'s node in a cluster of `places`. */
export function nodeSettings(
  place: NodePlace,
  cluster: {
    readonly places: readonly NodePlace[];
    readonly host: string;
    readonly options: ClusterOptions;
  },
): Record<string, string> {
  const { node } = place;
  const { host, options } = cluster;
  const voters = cluster.places
    .filter((each) => each.controllerPort !== undefined)
    .map((each) => `${each.node.id}@${host}:${each.controllerPort}`);
  const listeners: string[] = [];
  if (place.clientPort !== undefined) listeners.push(`PLAINTEXT://${host}:${place.clientPort}`);
  if (place.controllerPort !== undefined) {
    listeners.push(`CONTROLLER://${host}:${place.controllerPort}`);
  }
  const roles = { combined: "broker,controller", controller: "controller", broker: "broker" };
  const brokerCount = cluster.places.filter((each) => each.clientPort !== undefined).length;
  const settings: Record<string, string> = {
    "process.roles": roles[node.role],
    "node.id": String(node.id),
    listeners: listeners.join(","),
    "controller.listener.names": "CONTROLLER",
    "controller.quorum.voters": voters.join(","),
    "log.dirs": place.logDir,
    "metadata.log.dir": place.metadataLogDir,
    ...testTimings(brokerCount),
    ...topicDefaultSettings(options.topicDefaults),
  };
  if (place.clientPort !== undefined) {
    settings["advertised.listeners"] = `PLAINTEXT://${host}:${place.clientPort}`;
  }
  const written = { ...options.configs, ...options.nodeConfigs?.[node.id] };
  for (const [key, value] of Object.entries(written)) settings[key] = String(value);
  return settings;
}

/** The NodeConfig of `settings`; throws a RangeError naming every problem they have. */
export function nodeConfigOf(nodeId: number, values: Readonly<Record<string, string>>): NodeConfig {
  const loaded = loadNodeConfig({ base: { kind: "preset", name: `node ${nodeId}`, values } });
  if (loaded.kind === "valid") return loaded.config;
  const problems = loaded.problems.map((problem) => formatProblem(problem)).join("; ");
  throw new RangeError(`node ${nodeId} cannot run with these settings: ${problems}`);
}
