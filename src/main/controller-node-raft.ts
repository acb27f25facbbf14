/**
 * The Raft pieces of a controller node: its RaftConfig from the node configuration, the
 * transport that sends the node's requests with the project's client, and the handlers that
 * serve the Raft APIs on the controller listener's router.
 */
import type { PeerSecurity } from "./node-types.js";
import { brokerId, type Uuid } from "../common/index.js";
import {
  ClientPool,
  describeFailure,
  type ClientPorts,
  type ClientResult,
} from "../client/index.js";
import { AclOperation } from "../metadata/index.js";
import {
  ApiKey,
  typedApiCodec,
  type FetchRequest,
  type FetchResponseNodeEndpoint,
} from "../protocol/index.js";
import type { Logger } from "../ports/index.js";
import {
  defineHandler,
  hasTopLevelErrorCode,
  respond,
  type ApiHandler,
  type RequestRouter,
} from "../broker/index.js";
import {
  DEFAULT_RAFT_TIMINGS,
  fetchWireForms,
  RAFT_API_BRIDGES,
  RAFT_API_CODECS,
  type Endpoint,
  type RaftApiBridge,
  type RaftConfig,
  type RaftDriver,
  type RaftResponse,
  type RaftTransport,
} from "../raft/index.js";
import type { NodeConfig } from "./config/node-config.js";

/**
 * The node's RaftConfig: static voters from controller.quorum.voters (kraft.version 0), or,
 * with only controller.quorum.bootstrap.servers, a dynamic quorum (kraft.version 1) whose voters
 * the driver reads from the bootstrap checkpoint and the log.
 */
export function raftConfigOf(
  config: NodeConfig,
  identity: { readonly nodeId: number; readonly clusterId: string; readonly directoryId: Uuid },
): RaftConfig {
  const listenerName = config.controllerListenerNames[0] ?? "CONTROLLER";
  const quorum = config.quorum;
  return {
    nodeId: identity.nodeId,
    directoryId: identity.directoryId,
    clusterId: identity.clusterId,
    listeners: config.listeners
      .filter((listener) => config.controllerListenerNames.includes(listener.name))
      .map(({ name, host, port }) => ({ name, host, port })),
    bootstrapVoters: quorum.voters.map((voter) => ({
      id: voter.nodeId,
      directoryId: null,
      endpoints: [{ name: listenerName, host: voter.host, port: voter.port }],
    })),
    bootstrapServerCount: quorum.bootstrapServers.length,
    kraftVersion: quorum.voters.length > 0 ? 0 : 1,
    timings: {
      ...DEFAULT_RAFT_TIMINGS,
      electionTimeoutMs: quorum.electionTimeoutMs,
      electionBackoffMaxMs: quorum.electionBackoffMaxMs,
      fetchTimeoutMs: quorum.fetchTimeoutMs,
      appendLingerMs: quorum.appendLingerMs,
      retryBackoffMs: quorum.retryBackoffMs,
    },
  };
}

/** A RaftTransport over the project's client: one connection per voter. */
export class ClientRaftTransport implements RaftTransport {
  private readonly pool: ClientPool;
  private readonly logger: Logger;
  private readonly listenerNames: readonly string[];
  private voterEndpoints: (id: number) => readonly Endpoint[] | undefined = () => undefined;

  constructor(
    ports: ClientPorts & {
      readonly logger: Logger;
      readonly peerSecurity?: PeerSecurity | undefined;
    },
    config: NodeConfig,
    nodeId: number,
  ) {
    this.logger = ports.logger;
    this.listenerNames = config.controllerListenerNames;
    this.pool = new ClientPool(ports, {
      requestTimeoutMs: config.quorum.requestTimeoutMs,
      clientId: `raft-client-${nodeId}`,
      security: ports.peerSecurity?.controller,
    });
    for (const voter of config.quorum.voters) {
      this.pool.setNodeAddress(brokerId(voter.nodeId), { host: voter.host, port: voter.port });
    }
    // The node addresses bootstrap server i as -(i + 1) when it knows no voter (KIP-853).
    config.quorum.bootstrapServers.forEach((server, index) => {
      this.pool.setNodeAddress(brokerId(-(index + 1)), { host: server.host, port: server.port });
    });
  }

  /**
   * Reaches voters at the endpoints of the voter set in force (KIP-853: VotersRecord endpoints
   * in the log or the bootstrap checkpoint), which win over controller.quorum.voters.
   */
  useVoterEndpoints(lookup: (id: number) => readonly Endpoint[] | undefined): void {
    this.voterEndpoints = lookup;
  }

  async send(
    destinationId: number,
    request: Parameters<RaftTransport["send"]>[1],
  ): Promise<RaftResponse | undefined> {
    const target = brokerId(destinationId);
    const endpoint = this.voterEndpoints(destinationId)?.find((candidate) =>
      this.listenerNames.includes(candidate.name),
    );
    if (endpoint !== undefined) {
      this.pool.setNodeAddress(target, { host: endpoint.host, port: endpoint.port });
    }
    const result =
      request.api === "fetch"
        ? await this.sendFetch(target, request.body)
        : await this.pool.send(target, RAFT_API_CODECS[request.api], request.body);
    if (result.kind !== "response") {
      // Failures are routine while a voter is down; the node retries after its backoff.
      this.logger.debug("raft request failed", {
        api: request.api,
        destinationId,
        failure: describeFailure(result),
      });
      return undefined;
    }
    // The codec of the request's API decoded the body, so it is that API's response.
    const response = { api: request.api, body: result.body } as RaftResponse;
    if (response.api === "fetch") this.learnLeaderEndpoints(response.body.nodeEndpoints);
    return response;
  }

  /**
   * Remembers the leader endpoints a Fetch response (v16+) names, so that an observer that
   * found the leader through a bootstrap server reaches it before the voter set (with the
   * leader's endpoints) is in its log. The voter set's endpoints win when it has them.
   */
  private learnLeaderEndpoints(nodeEndpoints: readonly FetchResponseNodeEndpoint[]): void {
    for (const endpoint of nodeEndpoints) {
      if (endpoint.nodeId < 0 || this.voterEndpoints(endpoint.nodeId) !== undefined) continue;
      const address = { host: endpoint.host, port: endpoint.port };
      this.pool.setNodeAddress(brokerId(endpoint.nodeId), address);
    }
  }

  /**
   * Sends a Fetch in the first of its wire forms (fetch-versions.ts) whose versions the peer
   * serves: the node names the replica both ways and each version carries only one of them,
   * so a peer without Fetch 15 (KIP-903) gets the replicaId form of versions 12-14.
   */
  private async sendFetch(target: ReturnType<typeof brokerId>, body: FetchRequest) {
    const forms = fetchWireForms(body);
    let result: ClientResult<object> = { kind: "unknownNode", nodeId: target };
    for (const form of forms) {
      const range = { minVersion: form.minVersion, maxVersion: form.maxVersion };
      result = await this.pool.send(target, RAFT_API_CODECS.fetch, form.body, range);
      if (result.kind !== "unsupportedVersion") return result;
    }
    return result;
  }

  /** Closes every connection; requests waiting fail at once. */
  close(): void {
    this.pool.close();
  }
}

/**
 * Registers a handler per Raft API on `router`, each over the versions whose responses have a
 * top-level error code (so the router can answer any failure), which are all the versions
 * KRaft peers use.
 */
export function registerRaftApis(router: RequestRouter, driver: () => RaftDriver): void {
  for (const bridge of RAFT_API_BRIDGES) router.register(raftHandler(bridge, driver));
}

/**
 * What Kafka's ControllerApis asks of a Raft request's principal on the cluster: DESCRIBE for
 * DescribeQuorum, ALTER to add or remove a voter, CLUSTER_ACTION for the voters' own traffic.
 */
function raftOperationOf(apiKey: number): number {
  if (apiKey === ApiKey.DescribeQuorum) return AclOperation.DESCRIBE;
  if (apiKey === ApiKey.AddRaftVoter || apiKey === ApiKey.RemoveRaftVoter) {
    return AclOperation.ALTER;
  }
  return AclOperation.CLUSTER_ACTION;
}

function raftHandler<K extends ApiKey>(
  bridge: RaftApiBridge<K>,
  driver: () => RaftDriver,
): ApiHandler<K> {
  const codec = typedApiCodec(bridge.apiKey);
  let minVersion = codec.minVersion;
  while (minVersion <= codec.maxVersion && !hasTopLevelErrorCode(codec.apiKey, minVersion)) {
    minVersion += 1;
  }
  if (minVersion > codec.maxVersion) throw new RangeError(`${codec.name} has no error code`);
  return defineHandler(bridge.apiKey, {
    minVersion,
    maxVersion: codec.maxVersion,
    authorization: { kind: "cluster", operation: raftOperationOf(bridge.apiKey) },
    handle: async (request) => respond(await driver().answerApi(bridge, request)),
  });
}
