/**
 * A controller quorum for the lifecycle and forwarding tests, built from src/controller's pure
 * controls: every voter is a TestBroker on the simulated network; the active one runs
 * registerBroker, handleBrokerHeartbeat and createTopics on one shared image (its records
 * "commit" at once, at consecutive offsets), the others answer NOT_CONTROLLER as Kafka's inactive
 * controllers do.
 */
import { ErrorCode, brokerId, type NodeId } from "../../../src/common/index.js";
import { EMPTY_IMAGE, type MetadataImage } from "../../../src/metadata/index.js";
import type { Address } from "../../../src/ports/index.js";
import {
  BrokerHeartbeats,
  DEFAULT_CLUSTER_CONTROL_CONFIG,
  bootstrapRecords,
  createTopics,
  handleBrokerHeartbeat,
  imageAfter,
  registerBroker,
  type PartitionHooks,
} from "../../../src/controller/index.js";
import type {
  BrokerHeartbeatRequest,
  BrokerRegistrationRequest,
  CreateTopicsRequest,
  MetadataRecord,
} from "../../../src/protocol/index.js";
import type { ControllerEndpoint } from "../../../src/broker/index.js";
import type { SimWorld } from "../../../sim/index.js";
import { SeededRandom } from "../../../sim/index.js";
import { TestBroker, type ReceivedRequest } from "../../client/test-broker.js";

export const CLUSTER_ID = "sluice-test-cluster-0";

const REGISTRATION_KEY = 62;
const HEARTBEAT_KEY = 63;
const CREATE_TOPICS_KEY = 19;

const NO_PARTITION_MOVES: PartitionHooks = {
  brokerFenced: () => [],
  brokerShuttingDown: () => [],
  brokerUncleanShutdown: () => [],
  brokerUnfenced: () => [],
  logDirsOffline: () => [],
};

/** The controller quorum; `activeId` says which voter serves. */
export class FakeControllerQuorum {
  image: MetadataImage;
  heartbeats = BrokerHeartbeats.EMPTY;
  nextWriteOffset: number;
  activeId: NodeId;
  /** Every request any voter received, with the voter's id. */
  readonly received: { voterId: NodeId; apiKey: number; body: Record<string, unknown> }[] = [];
  /** When set, the active controller does not answer heartbeats (a stalled controller). */
  isHeartbeatSilent = false;
  private readonly random = new SeededRandom(99);

  constructor(
    private readonly world: SimWorld,
    readonly endpoints: readonly ControllerEndpoint[],
  ) {
    const bootstrap = bootstrapRecords();
    this.image = imageAfter(EMPTY_IMAGE, bootstrap);
    this.nextWriteOffset = bootstrap.length;
    this.activeId = endpoints[0]?.nodeId ?? brokerId(1);
  }

  /** Starts one TestBroker per voter. */
  async start(): Promise<void> {
    for (const endpoint of this.endpoints) {
      const voterId = endpoint.nodeId as NodeId;
      const server = new TestBroker([
        { apiKey: 18, minVersion: 0, maxVersion: 4 },
        { apiKey: REGISTRATION_KEY, minVersion: 0, maxVersion: 4 },
        { apiKey: HEARTBEAT_KEY, minVersion: 0, maxVersion: 1 },
        { apiKey: CREATE_TOPICS_KEY, minVersion: 2, maxVersion: 7 },
      ]);
      server.onRequest = (request) => this.answer(voterId, request);
      const address: Address = endpoint.address;
      await server.listen(this.world.network.forNode(address.host), address);
    }
  }

  private answer(voterId: NodeId, request: ReceivedRequest): void {
    const apiKey = request.header.apiKey;
    this.received.push({ voterId, apiKey, body: request.body });
    if (voterId !== this.activeId) {
      request.reply(notController(apiKey, request.body));
      return;
    }
    if (apiKey === REGISTRATION_KEY) {
      const result = registerBroker(
        {
          image: this.image,
          heartbeats: this.heartbeats,
          nowMs: this.world.scheduler.nowMs(),
          clusterId: CLUSTER_ID,
          config: DEFAULT_CLUSTER_CONTROL_CONFIG,
          hooks: NO_PARTITION_MOVES,
          nextWriteOffset: this.nextWriteOffset,
        },
        request.body as unknown as BrokerRegistrationRequest,
      );
      this.heartbeats = result.heartbeats;
      this.commit(result.records);
      request.reply(result.response);
    } else if (apiKey === HEARTBEAT_KEY) {
      if (this.isHeartbeatSilent) return;
      const result = handleBrokerHeartbeat(
        {
          image: this.image,
          heartbeats: this.heartbeats,
          nowMs: this.world.scheduler.nowMs(),
          hooks: NO_PARTITION_MOVES,
        },
        request.body as unknown as BrokerHeartbeatRequest,
      );
      this.heartbeats = result.heartbeats;
      this.commit(result.records);
      request.reply(result.response);
    } else {
      const result = createTopics(
        {
          image: this.image,
          random: this.random,
          defaults: { numPartitions: 1, defaultReplicationFactor: 1 },
          staticConfig: {},
        },
        request.body as unknown as CreateTopicsRequest,
      );
      this.commit(result.records);
      request.reply(result.response);
    }
  }

  private commit(records: readonly MetadataRecord[]): void {
    this.image = imageAfter(this.image, records);
    this.nextWriteOffset += records.length;
  }
}

/** The answer of an inactive controller: NOT_CONTROLLER where the API keeps its errors. */
function notController(apiKey: number, body: Record<string, unknown>): object {
  const errorCode = ErrorCode.NOT_CONTROLLER;
  if (apiKey === CREATE_TOPICS_KEY) {
    const topics = (body["topics"] as { name: string }[]).map(({ name }) => ({ name, errorCode }));
    return { throttleTimeMs: 0, topics };
  }
  return { throttleTimeMs: 0, errorCode };
}
