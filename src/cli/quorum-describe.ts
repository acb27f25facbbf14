/**
 * `sluice quorum describe --bootstrap-controller HOST:PORT[,HOST:PORT...]
 * [--status|--replication] [--json] [--command-config FILE]`: asks the controllers for the state
 * of the metadata quorum (DescribeQuorum, v2 or the highest they serve) and its cluster id
 * (DescribeCluster), and prints them as Kafka's kafka-metadata-quorum.sh does. Any controller
 * will do: only the leader describes the quorum, so a refusal's leader id (or else every voter)
 * is asked next, and standard error says which controller leads when the one given does not.
 */
import { errorName } from "../common/index.js";
import { parseHostPort } from "../main/index.js";
import type { Address } from "../ports/index.js";
import type { DescribeQuorumResponse } from "../protocol/index.js";
import { EXIT, parseCommandOptions, type CommandOutput } from "./command-options.js";
import {
  formatStatus,
  formatTable,
  quorumStatus,
  replicationRows,
  REPLICATION_HEADERS,
  type Endpoints,
} from "./quorum-describe-format.js";
import type { ClusterCommandIo } from "./cluster-session.js";
import { findQuorumLeader } from "./quorum-leader.js";
import { quorumConnectionOptions } from "./quorum-security.js";

export const QUORUM_DESCRIBE_USAGE =
  "usage: sluice quorum describe --bootstrap-controller HOST:PORT[,HOST:PORT...] " +
  "[--status|--replication] [--json] [--command-config FILE]";

/** Runs `sluice quorum describe` with the arguments after `describe`. */
export async function quorumDescribe(
  args: readonly string[],
  io: ClusterCommandIo,
): Promise<number> {
  const parsed = parseCommandOptions(args, {
    booleans: ["--status", "--replication", "--json"],
    values: ["--bootstrap-controller", "--command-config"],
  });
  const target = parsed.kind === "ok" ? parsed.values.get("--bootstrap-controller") : undefined;
  const addresses = (target ?? "").split(",").map((part) => parseHostPort(part));
  const wrong = addresses.find((address) => !address.ok);
  if (parsed.kind === "usage" || target === undefined || wrong !== undefined) {
    if (parsed.kind === "usage") io.error(parsed.message);
    else if (wrong !== undefined && !wrong.ok) io.error(wrong.message);
    io.error(QUORUM_DESCRIBE_USAGE);
    return EXIT.usage;
  }
  const bootstrap: Address[] = addresses.flatMap((address) => (address.ok ? [address.value] : []));
  const options = await quorumConnectionOptions(io, parsed.values.get("--command-config"));
  if ("problem" in options) {
    io.error(options.problem);
    return EXIT.failed;
  }
  const found = await findQuorumLeader(bootstrap, io, options);
  if (found.kind === "failed") {
    io.error(`DescribeQuorum failed: ${found.message}`);
    return EXIT.failed;
  }
  for (const redirect of found.redirects) io.error(redirect);
  if (found.redirects.length > 0) {
    io.error(`Answered by the leader at ${found.address.host}:${found.address.port}.`);
  }
  return print(found.response, found.clusterId, parsed, io);
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
