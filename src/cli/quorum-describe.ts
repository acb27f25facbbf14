/**
 * `sluice quorum describe --bootstrap-controller HOST:PORT [--status|--replication] [--json]`:
 * asks a controller for the state of the metadata quorum (DescribeQuorum, v2 or the highest it
 * serves) and its cluster id (DescribeCluster), and prints them as Kafka's
 * kafka-metadata-quorum.sh does.
 */
import { errorName } from "../common/index.js";
import { describeFailure, withConnection, type ClientPorts } from "../client/index.js";
import { parseHostPort } from "../main/index.js";
import { describeCluster, describeQuorum, type DescribeQuorumResponse } from "../protocol/index.js";
import { EXIT, parseCommandOptions, type CommandOutput } from "./command-options.js";
import {
  formatStatus,
  formatTable,
  quorumStatus,
  replicationRows,
  REPLICATION_HEADERS,
  type Endpoints,
} from "./quorum-describe-format.js";

export const QUORUM_DESCRIBE_USAGE =
  "usage: sluice quorum describe --bootstrap-controller HOST:PORT " +
  "[--status|--replication] [--json]";

const METADATA_TOPIC = "__cluster_metadata";
/** DescribeCluster's endpointType asking for controllers (KIP-919). */
const CONTROLLER_ENDPOINTS = 2;

/** Runs `sluice quorum describe` with the arguments after `describe`. */
export async function quorumDescribe(
  args: readonly string[],
  io: CommandOutput & ClientPorts,
): Promise<number> {
  const parsed = parseCommandOptions(args, {
    booleans: ["--status", "--replication", "--json"],
    values: ["--bootstrap-controller"],
  });
  const target = parsed.kind === "ok" ? parsed.values.get("--bootstrap-controller") : undefined;
  const address = target === undefined ? undefined : parseHostPort(target);
  if (parsed.kind === "usage" || address === undefined || !address.ok) {
    if (parsed.kind === "usage") io.error(parsed.message);
    else if (address !== undefined && !address.ok) io.error(address.message);
    io.error(QUORUM_DESCRIBE_USAGE);
    return EXIT.usage;
  }
  return withConnection(address.value, io, async (connection) => {
    const body = { topics: [{ topicName: METADATA_TOPIC, partitions: [{ partitionIndex: 0 }] }] };
    const quorum = await connection.send(describeQuorum, body, { maxVersion: 2 });
    if (quorum.kind !== "response") {
      io.error(`DescribeQuorum failed: ${describeFailure(quorum)}`);
      return EXIT.failed;
    }
    const cluster = await connection.send(describeCluster, {
      includeClusterAuthorizedOperations: false,
      endpointType: CONTROLLER_ENDPOINTS,
    });
    const clusterId =
      cluster.kind === "response" && cluster.body.errorCode === 0
        ? cluster.body.clusterId
        : "unknown";
    return print(quorum.body, clusterId, parsed, io);
  });
}

function print(
  response: DescribeQuorumResponse,
  clusterId: string,
  options: { readonly booleans: ReadonlySet<string> },
  io: CommandOutput,
): number {
  const partition = response.topics[0]?.partitions[0];
  const errorCode = response.errorCode !== 0 ? response.errorCode : (partition?.errorCode ?? 0);
  if (partition === undefined || errorCode !== 0) {
    const message = response.errorMessage ?? partition?.errorMessage ?? "";
    io.error(`DescribeQuorum failed: ${errorName(errorCode)} ${message}`.trimEnd());
    return EXIT.failed;
  }
  const isJson = options.booleans.has("--json");
  if (options.booleans.has("--replication")) {
    const rows = replicationRows(partition);
    const lines = isJson ? [JSON.stringify(rows, null, 2)] : formatTable(rows, REPLICATION_HEADERS);
    for (const line of lines) io.write(line);
    return EXIT.ok;
  }
  const status = quorumStatus(clusterId, partition, endpointsOf(response));
  const lines = isJson ? [JSON.stringify(status, null, 2)] : formatStatus(status);
  for (const line of lines) io.write(line);
  return EXIT.ok;
}

function endpointsOf(response: DescribeQuorumResponse): Endpoints {
  return new Map(
    response.nodes.map((node) => [
      node.nodeId,
      node.listeners.map((listener) => `${listener.name}://${listener.host}:${listener.port}`),
    ]),
  );
}
