/**
 * `sluice cluster health`: as `rpk cluster health`, whether the cluster is healthy, its active
 * controller, the brokers that are down, and the partitions without a leader or with fewer
 * in-sync replicas than replicas, from Metadata of every topic. A broker counts as down when a
 * partition names it as a replica but Metadata does not list it (it is fenced or stopped): a
 * stopped broker that holds no replica is not seen. The command exits 1 when the cluster is not
 * healthy, so a script can wait on it. The active controller is the Raft leader of the
 * metadata quorum, which brokers do not report (Metadata names a random broker as controller,
 * as Kafka's KRaft brokers do), so it is shown only when `--bootstrap-controller` says where to
 * ask for it (DescribeQuorum, as `sluice quorum describe`).
 */
import { ErrorCode } from "../common/index.js";
import { EXIT } from "./command-options.js";
import { CommandFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, type AdminCommand, type AdminIo, type AdminOptions } from "./admin-command.js";
import { formatStatus } from "./quorum-describe-format.js";
import { findQuorumLeader } from "./quorum-leader.js";
import { parseHostPort } from "../main/index.js";

export const CLUSTER_COMMAND: AdminCommand = {
  name: "cluster",
  usage:
    "usage: sluice cluster health [--bootstrap-server HOST:PORT] " +
    "[--bootstrap-controller HOST:PORT,...] [--json]",
  help: [
    "  health  Healthy (true or false) and why not, the controller id, every broker, the brokers",
    "          down, the leaderless and the under-replicated partitions; exits 1 when unhealthy.",
    "          The controller id is the quorum leader's, asked of --bootstrap-controller.",
  ],
  subcommands: ["health"],
  options: { booleans: [], values: ["--bootstrap-controller"] },
  errorPrefix: "Error: ",
  isRetried: () => true,
  run: (_subcommand, session, options, io) => clusterHealth(session, options, io),
};

/** The health overview, in rpk's field names. */
export interface ClusterHealth {
  readonly healthy: boolean;
  readonly unhealthyReasons: readonly string[];
  /** The active controller, -1 when none leads, null when not asked (no --bootstrap-controller). */
  readonly controllerId: number | null;
  readonly allNodes: readonly number[];
  readonly nodesDown: readonly number[];
  readonly leaderlessPartitions: readonly string[];
  readonly underReplicatedPartitions: readonly string[];
}

async function clusterHealth(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const metadata = await session.metadata(null);
  const live = new Set(metadata.brokers.map((broker) => broker.nodeId));
  const named = new Set<number>();
  const leaderless: string[] = [];
  const underReplicated: string[] = [];
  const topics = [...metadata.topics].sort((a, b) => (a.name ?? "").localeCompare(b.name ?? ""));
  for (const topic of topics) {
    if (topic.errorCode !== ErrorCode.NONE) continue;
    const partitions = [...topic.partitions].sort((a, b) => a.partitionIndex - b.partitionIndex);
    for (const partition of partitions) {
      const name = `${topic.name ?? ""}/${partition.partitionIndex}`;
      for (const replica of partition.replicaNodes) named.add(replica);
      if (partition.leaderId < 0) leaderless.push(name);
      if (partition.isrNodes.length < partition.replicaNodes.length) underReplicated.push(name);
    }
  }
  const controllerId = await activeController(options, io);
  const down = [...named].filter((id) => !live.has(id)).sort((a, b) => a - b);
  const reasons = [
    ...(controllerId === -1 ? ["no_elected_controller"] : []),
    ...(down.length > 0 ? ["nodes_down"] : []),
    ...(leaderless.length > 0 ? ["leaderless_partitions"] : []),
    ...(underReplicated.length > 0 ? ["under_replicated_partitions"] : []),
  ];
  const health: ClusterHealth = {
    healthy: reasons.length === 0,
    unhealthyReasons: reasons,
    controllerId,
    allNodes: [...new Set([...live, ...down])].sort((a, b) => a - b),
    nodesDown: down,
    leaderlessPartitions: leaderless,
    underReplicatedPartitions: underReplicated,
  };
  if (isJson(options)) io.write(JSON.stringify(health, null, 2));
  else for (const line of healthLines(health)) io.write(line);
  return health.healthy ? EXIT.ok : EXIT.failed;
}

/** rpk's layout: a title, then aligned fields; lists in brackets, space separated. */
function healthLines(health: ClusterHealth): string[] {
  const list = (values: readonly (string | number)[]): string => `[${values.join(" ")}]`;
  return [
    "CLUSTER HEALTH OVERVIEW",
    "=======================",
    ...formatStatus({
      Healthy: String(health.healthy),
      "Unhealthy reasons": list(health.unhealthyReasons),
      "Controller ID": String(health.controllerId ?? "unknown (see --bootstrap-controller)"),
      "All nodes": list(health.allNodes),
      "Nodes down": list(health.nodesDown),
      [`Leaderless partitions (${health.leaderlessPartitions.length})`]: list(
        health.leaderlessPartitions,
      ),
      [`Under-replicated partitions (${health.underReplicatedPartitions.length})`]: list(
        health.underReplicatedPartitions,
      ),
    }),
  ];
}

/** The quorum leader's id, -1 when none leads or none answers, null without the option. */
async function activeController(options: AdminOptions, io: AdminIo): Promise<number | null> {
  const text = options.values.get("--bootstrap-controller");
  if (text === undefined) return null;
  const addresses = text.split(",").map((part) => {
    const parsed = parseHostPort(part);
    if (!parsed.ok) throw new CommandFailure(`--bootstrap-controller: ${parsed.message}`);
    return parsed.value;
  });
  const found = await findQuorumLeader(addresses, io);
  if (found.kind === "failed") {
    io.error(`No active controller: ${found.message}`);
    return -1;
  }
  return found.response.topics[0]?.partitions[0]?.leaderId ?? -1;
}
