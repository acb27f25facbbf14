/**
 * One incarnation of a simulated broker: it follows the metadata log as a Raft observer into its
 * own MetadataLoader (through a CommitFeed), and runs the pure BrokerLifecycle against the
 * active controller: registration, then heartbeats, one request in flight, each failing after
 * `brokerRequestTimeoutMs` without an answer. It sends to the Raft leader its observer knows,
 * or to a random controller while it knows none, as Kafka's broker finds the active controller.
 */
import {
  BrokerLifecycle,
  DEFAULT_BROKER_LIFECYCLE_CONFIG,
  newIncarnationId,
  type BrokerIdentity,
  type LifecycleStep,
} from "../../src/broker/index.js";
import type { NodeId, Uuid } from "../../src/common/index.js";
import {
  ELIGIBLE_LEADER_REPLICAS_FEATURE,
  METADATA_VERSION,
  METADATA_VERSION_LATEST,
  METADATA_VERSION_MIN,
} from "../../src/controller/index.js";
import { MetadataLoader, type MetadataImage } from "../../src/metadata/index.js";
import type { Timer } from "../../src/ports/index.js";
import type { RaftProcess } from "../raft/raft-process.js";
import type { SeededRandom } from "../random.js";
import { nodeName } from "../raft/settings.js";
import { CommitFeed, type CommitWitness } from "./commit-feed.js";
import type { ClusterMember, MemberWorld } from "./cluster-process.js";
import {
  brokerHeartbeatIntervalMs,
  brokerRequestTimeoutMs,
  clusterId,
  controllerIds,
  type ClusterEnvelope,
} from "./settings.js";

interface InFlight {
  readonly requestId: number;
  readonly timer: Timer;
}

/** A broker process's incarnation. */
export class BrokerMember implements ClusterMember {
  readonly loader: MetadataLoader;
  private readonly feed: CommitFeed;
  private readonly lifecycle: BrokerLifecycle;
  private inFlight: InFlight | null = null;
  private communicationTimer: Timer | null = null;
  private nextRequestId = 1;
  private isStopped = false;
  private readonly guesses: SeededRandom;
  /** The incarnation id this process registers with. */
  readonly incarnationId: Uuid;

  constructor(
    private readonly process: RaftProcess,
    private readonly world: MemberWorld,
    witness: CommitWitness,
  ) {
    this.guesses = process.random("controller-guess");
    this.incarnationId = newIncarnationId(process.random("incarnation"));
    this.loader = new MetadataLoader({ nowMs: world.scheduler.nowMs() });
    this.feed = new CommitFeed(process.name, this.loader, witness);
    this.lifecycle = new BrokerLifecycle(this.identity(), {
      ...DEFAULT_BROKER_LIFECYCLE_CONFIG,
      heartbeatIntervalMs: brokerHeartbeatIntervalMs,
      // The broker keeps trying for as long as the simulation runs.
      initialRegistrationTimeoutMs: Number.MAX_SAFE_INTEGER,
      retryBackoffMs: 20,
    });
    this.apply(this.lifecycle.start());
  }

  /** True when the controller last told this incarnation it runs unfenced. */
  get isRunningUnfenced(): boolean {
    return this.lifecycle.state === "running" && !this.lifecycle.isFenced;
  }

  /** The broker's metadata image. */
  get image(): MetadataImage {
    return this.loader.image;
  }

  onRaftProgress(highWatermark: number | null): void {
    if (this.isStopped || highWatermark === null) return;
    this.feed.deliverTo(this.process.visibleDisk, highWatermark);
  }

  /** A controller answered. */
  receive(envelope: ClusterEnvelope): void {
    if (envelope.kind !== "brokerResponse" || this.isStopped) return;
    const inFlight = this.inFlight;
    if (inFlight === null || inFlight.requestId !== envelope.requestId) return;
    inFlight.timer.cancel();
    this.inFlight = null;
    const response = envelope.response;
    this.apply(
      response.api === "registration"
        ? this.lifecycle.onRegistrationResponse(response.body)
        : this.lifecycle.onHeartbeatResponse(response.body),
    );
  }

  stop(): void {
    this.isStopped = true;
  }

  private identity(): BrokerIdentity {
    const id = this.process.id;
    // The log dir keeps its id across restarts; the incarnation id is new in every process.
    const logDirId = newIncarnationId(this.world.scheduler.random.fork(`log-dir/${id}`));
    return {
      nodeId: id as NodeId,
      clusterId,
      incarnationId: this.incarnationId,
      listeners: [{ name: "PLAINTEXT", host: this.process.name, port: 9092, securityProtocol: 0 }],
      rack: null,
      logDirIds: [logDirId],
      features: [
        {
          name: METADATA_VERSION,
          minSupportedVersion: METADATA_VERSION_MIN,
          maxSupportedVersion: METADATA_VERSION_LATEST,
        },
        { name: ELIGIBLE_LEADER_REPLICAS_FEATURE, minSupportedVersion: 0, maxSupportedVersion: 1 },
      ],
      previousBrokerEpoch: -1,
    };
  }

  private apply(step: LifecycleStep): void {
    for (const event of step.events) {
      this.world.scheduler.record(`${this.process.name} lifecycle ${JSON.stringify(event)}`);
    }
    if (step.communicateInMs === undefined) return;
    this.communicationTimer?.cancel();
    this.communicationTimer = this.process.later(step.communicateInMs, "broker communicate", () => {
      this.communicationTimer = null;
      this.communicate();
    });
  }

  private communicate(): void {
    if (this.isStopped || this.inFlight !== null) return;
    const report = {
      metadataOffset: this.loader.image.provenance.lastContainedOffset,
      offlineLogDirs: [],
    };
    const communication = this.lifecycle.nextCommunication(report);
    if (communication === undefined) return;
    const requestId = this.nextRequestId++;
    const request =
      communication.kind === "registration"
        ? { api: "registration" as const, body: communication.body }
        : { api: "heartbeat" as const, body: communication.body };
    const envelope: ClusterEnvelope = {
      kind: "brokerRequest",
      requestId,
      requesterIncarnation: this.process.incarnation,
      request,
    };
    this.world.network.send(this.process.name, this.controllerTarget(), envelope);
    const timer = this.process.later(brokerRequestTimeoutMs, "broker request timeout", () => {
      if (this.inFlight?.requestId !== requestId) return;
      this.inFlight = null;
      this.apply(this.lifecycle.onCommunicationFailed());
    });
    this.inFlight = { requestId, timer };
  }

  private controllerTarget(): string {
    const leaderId = this.process.node?.leaderId ?? null;
    if (leaderId !== null && controllerIds.includes(leaderId)) return nodeName(leaderId);
    return nodeName(this.guesses.pick(controllerIds));
  }
}
