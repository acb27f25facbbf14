/**
 * Finds the controller that can answer DescribeQuorum: only the Raft leader describes the
 * quorum, and any other voter answers NOT_LEADER_OR_FOLLOWER with the leader's id (when it knows
 * one) and, in v2, every voter's listeners. The controllers asked are the bootstrap addresses,
 * then the leader a refusal names, then the other voters, each at most once.
 */
import { ErrorCode, errorName } from "../common/index.js";
import {
  describeFailure,
  withConnection,
  type ClientOptions,
  type ClientPorts,
} from "../client/index.js";
import type { Address } from "../ports/index.js";
import { describeCluster, describeQuorum, type DescribeQuorumResponse } from "../protocol/index.js";

const METADATA_TOPIC = "__cluster_metadata";
/** DescribeCluster's endpointType asking for controllers (KIP-919). */
const CONTROLLER_ENDPOINTS = 2;
/** The most controllers one command asks, however many voters the answers name. */
const CONTROLLERS_ASKED_MAX = 32;

/** The leader's answer, where it was found, or why none was. */
export type LeaderAnswer =
  | {
      readonly kind: "leader";
      readonly response: DescribeQuorumResponse;
      readonly clusterId: string;
      readonly address: Address;
      /** The controllers that answered they are not the leader, before the leader was found. */
      readonly redirects: readonly string[];
    }
  | { readonly kind: "failed"; readonly message: string };

function text(address: Address): string {
  return `${address.host}:${address.port}`;
}

/** The listeners of `nodeId` in a DescribeQuorum v2 answer. */
function endpointsOf(response: DescribeQuorumResponse, nodeId: number): Address[] {
  const node = response.nodes.find((entry) => entry.nodeId === nodeId);
  return (node?.listeners ?? []).map(({ host, port }) => ({ host, port }));
}

type Asked =
  | {
      readonly kind: "answer";
      readonly response: DescribeQuorumResponse;
      readonly clusterId: string;
    }
  | { readonly kind: "unreachable"; readonly message: string };

async function ask(
  address: Address,
  ports: ClientPorts,
  options: Partial<ClientOptions>,
): Promise<Asked> {
  return withConnection(
    address,
    ports,
    async (connection) => {
      const body = { topics: [{ topicName: METADATA_TOPIC, partitions: [{ partitionIndex: 0 }] }] };
      const quorum = await connection.send(describeQuorum, body, { maxVersion: 2 });
      if (quorum.kind !== "response") {
        return { kind: "unreachable", message: `${text(address)}: ${describeFailure(quorum)}` };
      }
      const cluster = await connection.send(describeCluster, {
        includeClusterAuthorizedOperations: false,
        endpointType: CONTROLLER_ENDPOINTS,
      });
      const clusterId =
        cluster.kind === "response" && cluster.body.errorCode === ErrorCode.NONE
          ? cluster.body.clusterId
          : "unknown";
      return { kind: "answer", response: quorum.body, clusterId };
    },
    options,
  );
}

/** Asks the controllers in turn until the leader answers. */
export async function findQuorumLeader(
  bootstrap: readonly Address[],
  ports: ClientPorts,
  options: Partial<ClientOptions> = {},
): Promise<LeaderAnswer> {
  const queue = [...bootstrap];
  const asked = new Set<string>();
  const redirects: string[] = [];
  let unreachable = "no controller to ask";
  /** The leader the last refusal named (-1: none known), or undefined before any refusal. */
  let namedLeader: number | undefined;
  while (queue.length > 0 && asked.size < CONTROLLERS_ASKED_MAX) {
    const address = queue.shift() as Address;
    if (asked.has(text(address))) continue;
    asked.add(text(address));
    const answer = await ask(address, ports, options);
    if (answer.kind === "unreachable") {
      unreachable = answer.message;
      continue;
    }
    const response = answer.response;
    const partition = response.topics[0]?.partitions[0];
    const errorCode =
      response.errorCode !== ErrorCode.NONE
        ? response.errorCode
        : (partition?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR);
    if (errorCode === ErrorCode.NONE) {
      return { kind: "leader", response, clusterId: answer.clusterId, address, redirects };
    }
    const message = response.errorMessage ?? partition?.errorMessage ?? "";
    if (errorCode !== ErrorCode.NOT_LEADER_OR_FOLLOWER || partition === undefined) {
      return { kind: "failed", message: `${errorName(errorCode)} ${message}`.trimEnd() };
    }
    const leaderId = partition.leaderId;
    redirects.push(
      leaderId >= 0
        ? `${text(address)} is not the leader; controller ${leaderId} is`
        : `${text(address)} is not the leader and knows of none`,
    );
    // The leader first, then every other voter, in case the leader moved meanwhile.
    queue.unshift(...(leaderId >= 0 ? endpointsOf(response, leaderId) : []));
    for (const node of response.nodes) queue.push(...endpointsOf(response, node.nodeId));
    namedLeader = leaderId;
  }
  if (namedLeader === undefined) return { kind: "failed", message: unreachable };
  const notLeader = errorName(ErrorCode.NOT_LEADER_OR_FOLLOWER);
  const why =
    namedLeader >= 0
      ? `controller ${namedLeader} leads the quorum but did not answer (${unreachable})`
      : "no controller leads the quorum now (an election may be under way); try again shortly";
  return { kind: "failed", message: `${notLeader}: ${why}` };
}
