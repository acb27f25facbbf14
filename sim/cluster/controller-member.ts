/**
 * One incarnation of a simulated controller: a QuorumController over the process's Raft node
 * (SimControllerRaft), with the simulated clock, timers that run in the process's turn (so a
 * pause holds them), and a seeded random stream. It answers brokers' registrations and
 * heartbeats through the controller's own API handlers, and admin writes through `submit`.
 */
import {
  ELIGIBLE_LEADER_REPLICAS_FEATURE,
  QuorumController,
  brokerHeartbeatApi,
  brokerRegistrationApi,
  defaultQuorumControllerSettings,
  type ControllerApi,
  type QuorumControllerSettings,
} from "../../src/controller/index.js";
import type { Timers } from "../../src/ports/index.js";
import type { RequestHeader } from "../../src/protocol/index.js";
import { MemoryMetricsSink } from "../memory-metrics.js";
import type { RaftProcess } from "../raft/raft-process.js";
import { CommitFeed, type CommitWitness } from "./commit-feed.js";
import type { ClusterMember, MemberWorld } from "./cluster-process.js";
import {
  brokerSessionTimeoutMs,
  clusterId,
  livenessScanIntervalMs,
  type BrokerRequest,
  type BrokerResponse,
  type ClusterEnvelope,
} from "./settings.js";
import { SimControllerRaft } from "./sim-controller-raft.js";
import { TraceLogger } from "./trace-logger.js";

/** The controller settings of one seed: Kafka's, scaled, with ELR on or off. */
export function simulatedControllerSettings(isElrEnabled: boolean): QuorumControllerSettings {
  const defaults = defaultQuorumControllerSettings(clusterId);
  return {
    ...defaults,
    cluster: { ...defaults.cluster, sessionTimeoutMs: brokerSessionTimeoutMs },
    livenessScanIntervalMs,
    // Rebalances every simulated second, so preferred-leader elections happen under faults.
    leaderRebalance: { ...defaults.leaderRebalance, leaderImbalanceCheckIntervalSeconds: 1 },
    bootstrap: {
      features: [{ name: ELIGIBLE_LEADER_REPLICAS_FEATURE, level: isElrEnabled ? 1 : 0 }],
    },
  };
}

function headerOf(api: ControllerApi, version: number): RequestHeader {
  return {
    apiKey: api.apiKey,
    apiVersion: version,
    correlationId: 0,
    clientId: "sim-broker",
    taggedFields: [],
  };
}

/** A controller process's incarnation. */
export class ControllerMember implements ClusterMember {
  readonly controller: QuorumController;
  private readonly raft: SimControllerRaft;
  private readonly feed: CommitFeed;
  private isStopped = false;

  constructor(
    private readonly process: RaftProcess,
    private readonly world: MemberWorld,
    settings: QuorumControllerSettings,
    witness: CommitWitness,
  ) {
    this.raft = new SimControllerRaft(process);
    this.feed = new CommitFeed(process.name, this.raft, witness);
    const simNode = world.scheduler.node(process.name);
    const timers: Timers = {
      schedule: (delayMs, callback) => process.later(delayMs, "controller timer", callback),
    };
    this.controller = new QuorumController({
      raft: this.raft,
      settings,
      clock: simNode.clock,
      timers,
      random: process.random("controller"),
      logger: new TraceLogger(world.scheduler, process.name),
      metrics: new MemoryMetricsSink(),
    });
  }

  /** The Raft node moved on: deliver what committed, then tell of a new leader. */
  onRaftProgress(highWatermark: number | null): void {
    if (this.isStopped) return;
    if (highWatermark !== null) this.feed.deliverTo(this.process.visibleDisk, highWatermark);
    this.raft.maybeNotifyLeader(this.feed.deliveredEndOffset);
  }

  /** A broker's request arrived: run it through the controller's queue and answer. */
  receive(envelope: ClusterEnvelope, from: string): void {
    if (envelope.kind !== "brokerRequest" || this.isStopped) return;
    const { requestId, requesterIncarnation } = envelope;
    void this.answer(envelope.request).then((response) => {
      // The answer of a crashed incarnation died with its connections.
      if (this.isStopped) return;
      const reply: ClusterEnvelope = {
        kind: "brokerResponse",
        requestId,
        requesterIncarnation,
        response,
      };
      this.world.network.send(this.process.name, from, reply);
    });
  }

  /** The process crashed: nothing of this incarnation may act again. */
  stop(): void {
    this.isStopped = true;
  }

  private async answer(request: BrokerRequest): Promise<BrokerResponse> {
    if (request.api === "registration") {
      const header = headerOf(brokerRegistrationApi, 4);
      const { listeners, features, logDirs } = request.body;
      const body = {
        ...request.body,
        listeners: [...listeners],
        features: [...features],
        logDirs: [...logDirs],
      };
      const response = await brokerRegistrationApi.handle(this.controller, {
        header,
        body,
        listenerName: "CONTROLLER",
      });
      return { api: "registration", body: response as BrokerResponse["body"] } as BrokerResponse;
    }
    const header = headerOf(brokerHeartbeatApi, 1);
    const body = { ...request.body, offlineLogDirs: [...request.body.offlineLogDirs] };
    const response = await brokerHeartbeatApi.handle(this.controller, {
      header,
      body,
      listenerName: "CONTROLLER",
    });
    return { api: "heartbeat", body: response as BrokerResponse["body"] } as BrokerResponse;
  }
}
