/**
 * The broker's side of membership (Kafka's BrokerLifecycleManager) as a pure state machine: it
 * says which request to send next and when, and what each answer means. States (BrokerState):
 *
 *   notRunning ─start─▶ starting ─caught up─▶ recovery ─unfenced─▶ running
 *                       (registering, then        │                   │ beginControlledShutdown
 *                        registered and fenced)   │                   ▼
 *                                                 │       pendingControlledShutdown
 *                                                 │                   │ shouldShutDown
 *   any ─shutDown, registration timeout, controlled shutdown when not running─▶ shuttingDown
 *
 * Registration comes first and is retried until it succeeds; then heartbeats follow, every
 * `broker.heartbeat.interval.ms` once running. A heartbeat refused with BROKER_ID_NOT_REGISTERED
 * or STALE_BROKER_EPOCH means the controller no longer holds this registration (the broker was
 * unregistered, or another process took the id): the broker registers again, as Kafka's broker
 * does when its metadata shows its registration gone. Only one request is in flight at a time;
 * the driver enforces that.
 */
import { ErrorCode, assert, type BrokerId, type NodeId, type Uuid } from "../../common/index.js";
import type { BrokerHeartbeatResponse, BrokerRegistrationResponse } from "../../protocol/index.js";
import {
  CATCH_UP_HEARTBEAT_DELAY_MS,
  CONTROLLED_SHUTDOWN_FIRST_RETRY_DELAY_MS,
  retryDelayMs,
  type BrokerLifecycleConfig,
} from "./lifecycle-config.js";
import type {
  BrokerIdentity,
  BrokerState,
  Communication,
  HeartbeatReport,
  LifecycleEvent,
  LifecycleStep,
  Registration,
  RegistrationBody,
} from "./lifecycle-types.js";

/** The broker id sent by a broker that asks the controller for one. */
export const ASSIGN_BROKER_ID = -1;

const NOTHING: LifecycleStep = { communicateInMs: undefined, events: [] };

function step(communicateInMs: number | undefined, ...events: LifecycleEvent[]): LifecycleStep {
  return { communicateInMs, events };
}

/** The lifecycle state machine; see the file comment. */
export class BrokerLifecycle {
  private currentState: BrokerState = "notRunning";
  private currentRegistration: Registration | undefined;
  private brokerId: NodeId | undefined;
  private isReadyToUnfence = false;
  private hasCaughtUp = false;
  private isFencedNow = true;
  private failedAttempts = 0;
  private hasRegistered = false;
  private gotControlledShutdownResponse = false;
  /** Offline dirs a heartbeat the controller accepted has named (KIP-858). */
  private readonly acknowledgedOfflineDirs = new Set<Uuid>();

  constructor(
    private readonly identity: BrokerIdentity,
    private readonly config: BrokerLifecycleConfig,
  ) {
    this.brokerId = identity.nodeId;
  }

  /** Where the broker stands. */
  get state(): BrokerState {
    return this.currentState;
  }

  /** The accepted registration, or undefined while (re)registering. */
  get registration(): Registration | undefined {
    return this.currentRegistration;
  }

  /** Whether the controller last said this broker is fenced (true until it says otherwise). */
  get isFenced(): boolean {
    return this.isFencedNow;
  }

  /** Starts registering at once. */
  start(): LifecycleStep {
    assert(this.currentState === "notRunning", "the lifecycle starts once");
    this.currentState = "starting";
    return step(0);
  }

  /** The request to send now, or undefined when shutting down. */
  nextCommunication(report: HeartbeatReport): Communication | undefined {
    if (this.currentState === "shuttingDown" || this.currentState === "notRunning") {
      return undefined;
    }
    // A dir named no more is online again; should it fail again, it must be reported again.
    for (const dir of this.acknowledgedOfflineDirs) {
      if (!report.offlineLogDirs.includes(dir)) this.acknowledgedOfflineDirs.delete(dir);
    }
    const registration = this.currentRegistration;
    if (registration === undefined) return { kind: "registration", body: this.registrationBody() };
    const body = {
      brokerId: registration.brokerId,
      brokerEpoch: registration.brokerEpoch,
      currentMetadataOffset: report.metadataOffset,
      wantFence: !this.wantsUnfence(),
      wantShutDown: this.currentState === "pendingControlledShutdown",
      offlineLogDirs: [...report.offlineLogDirs],
    };
    return { kind: "heartbeat", body };
  }

  /** The controller's answer to the registration request. */
  onRegistrationResponse(response: BrokerRegistrationResponse): LifecycleStep {
    if (this.currentState === "shuttingDown") return NOTHING;
    if (response.errorCode !== ErrorCode.NONE) return this.onCommunicationFailed();
    const isAssignedId = this.brokerId === undefined;
    const brokerId = isAssignedId ? response.assignedBrokerId : this.brokerId;
    // A controller that does not assign ids (a Kafka controller, or a Sluice one that predates
    // the field) leaves the default -1: the registration is of no use without an id.
    if (brokerId === undefined || brokerId < 0) return this.onCommunicationFailed();
    this.brokerId = brokerId as NodeId;
    const registration = { brokerId: brokerId as BrokerId, brokerEpoch: response.brokerEpoch };
    this.currentRegistration = registration;
    this.hasRegistered = true;
    this.failedAttempts = 0;
    return step(0, { kind: "registered", registration, isAssignedId });
  }

  /**
   * The controller's answer to a heartbeat; `deliveredOfflineDirs` are the offline dirs the
   * request carried, which an accepted heartbeat has told the controller of.
   */
  onHeartbeatResponse(
    response: BrokerHeartbeatResponse,
    deliveredOfflineDirs: readonly Uuid[] = [],
  ): LifecycleStep {
    if (this.currentState === "shuttingDown") return NOTHING;
    if (
      response.errorCode === ErrorCode.BROKER_ID_NOT_REGISTERED ||
      response.errorCode === ErrorCode.STALE_BROKER_EPOCH
    ) {
      this.currentRegistration = undefined;
      const events: LifecycleEvent[] = [
        { kind: "registrationLost", errorCode: response.errorCode },
      ];
      // A new registration starts fenced.
      if (!this.isFencedNow) events.push({ kind: "fenced" });
      this.isFencedNow = true;
      return { communicateInMs: 0, events };
    }
    if (response.errorCode !== ErrorCode.NONE) return this.onCommunicationFailed();
    this.failedAttempts = 0;
    for (const dir of deliveredOfflineDirs) this.acknowledgedOfflineDirs.add(dir);
    const events: LifecycleEvent[] = [];
    if (response.isFenced !== this.isFencedNow) {
      this.isFencedNow = response.isFenced;
      events.push({ kind: response.isFenced ? "fenced" : "unfenced" });
    }
    const next = this.advance(response, events);
    return { communicateInMs: next, events };
  }

  /** The request failed (no controller answered in time, or it refused): retry after a wait. */
  onCommunicationFailed(): LifecycleStep {
    if (this.currentState === "shuttingDown") return NOTHING;
    this.failedAttempts += 1;
    return step(retryDelayMs(this.config, this.failedAttempts));
  }

  /** The node has applied the caught-up metadata: the broker may be unfenced. */
  setReadyToUnfence(): LifecycleStep {
    if (this.currentState === "shuttingDown" || this.isReadyToUnfence) return NOTHING;
    this.isReadyToUnfence = true;
    return step(this.currentRegistration === undefined ? undefined : 0);
  }

  /** Something the heartbeat reports changed (a log dir went offline): tell the controller now. */
  communicateNow(): LifecycleStep {
    if (this.currentState === "shuttingDown" || this.currentState === "notRunning") return NOTHING;
    return step(0);
  }

  /**
   * Asks to shut down. A running broker asks the controller and waits for its go-ahead; a
   * broker that is not running leads nothing and stops at once, as in Kafka.
   */
  beginControlledShutdown(): LifecycleStep {
    if (this.currentState === "pendingControlledShutdown") return NOTHING;
    if (this.currentState !== "running") return this.shutDown();
    this.currentState = "pendingControlledShutdown";
    return step(0);
  }

  /** The initial registration timeout fired: a broker still unregistered gives up. */
  registrationTimedOut(): LifecycleStep {
    if (this.currentState !== "starting" || this.hasRegistered) return NOTHING;
    this.currentState = "shuttingDown";
    return step(undefined, { kind: "registrationTimedOut" });
  }

  /** Whether an accepted heartbeat has told the controller that `dir` is offline. */
  isOfflineDirAcknowledged(dir: Uuid): boolean {
    return this.acknowledgedOfflineDirs.has(dir);
  }

  /**
   * `log.dir.failure.timeout.ms` passed and the controller has not heard that `dirs` failed:
   * it may keep leaders on them, so the broker shuts down, as Kafka's does (KIP-858).
   */
  offlineDirsUnreported(dirs: readonly Uuid[]): LifecycleStep {
    if (this.currentState === "shuttingDown") return NOTHING;
    this.currentState = "shuttingDown";
    return step(undefined, { kind: "offlineDirsUnreported", dirs });
  }

  /** Stops all communication; terminal. */
  shutDown(): LifecycleStep {
    if (this.currentState === "shuttingDown") return NOTHING;
    this.currentState = "shuttingDown";
    return step(undefined, { kind: "readyToShutDown" });
  }

  /** Moves the state on a successful heartbeat answer; returns the delay to the next one. */
  private advance(response: BrokerHeartbeatResponse, events: LifecycleEvent[]): number | undefined {
    const intervalMs = this.config.heartbeatIntervalMs;
    switch (this.currentState) {
      case "starting":
        if (!response.isCaughtUp) return CATCH_UP_HEARTBEAT_DELAY_MS;
        this.currentState = "recovery";
        if (!this.hasCaughtUp) events.push({ kind: "caughtUp" });
        this.hasCaughtUp = true;
        return CATCH_UP_HEARTBEAT_DELAY_MS;
      case "recovery":
        if (response.isFenced) return intervalMs;
        this.currentState = "running";
        return intervalMs;
      case "running":
        return intervalMs;
      case "pendingControlledShutdown":
        return this.advanceControlledShutdown(response, events);
      case "notRunning":
      case "shuttingDown":
        return undefined;
    }
  }

  private advanceControlledShutdown(
    response: BrokerHeartbeatResponse,
    events: LifecycleEvent[],
  ): number | undefined {
    if (response.shouldShutDown) {
      this.currentState = "shuttingDown";
      events.push({ kind: "readyToShutDown" });
      return undefined;
    }
    const isFirst = !this.gotControlledShutdownResponse;
    this.gotControlledShutdownResponse = true;
    return isFirst ? CONTROLLED_SHUTDOWN_FIRST_RETRY_DELAY_MS : this.config.heartbeatIntervalMs;
  }

  /** wantFence is false once the broker caught up and is ready (Kafka's readyToUnfence). */
  private wantsUnfence(): boolean {
    if (this.config.unfenceReadiness === "atCatchUp") return this.hasCaughtUp;
    return this.isReadyToUnfence;
  }

  private registrationBody(): RegistrationBody {
    const identity = this.identity;
    return {
      brokerId: this.brokerId ?? ASSIGN_BROKER_ID,
      clusterId: identity.clusterId,
      incarnationId: identity.incarnationId,
      listeners: identity.listeners,
      features: identity.features,
      rack: identity.rack,
      isMigratingZkBroker: false,
      // Kafka sends the dir ids sorted, so the same dirs always make the same request.
      logDirs: [...identity.logDirIds].sort(),
      previousBrokerEpoch: identity.previousBrokerEpoch,
    };
  }
}
