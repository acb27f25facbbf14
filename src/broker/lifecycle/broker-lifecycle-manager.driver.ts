/**
 * Runs the pure `BrokerLifecycle` against the active controller: sends what it asks for through
 * the `ControllerChannel`, one request at a time, on the Timers port; persists a
 * controller-assigned id before the broker heartbeats under it; and turns the lifecycle's events
 * into promises (registered, caught up, unfenced, stopped) and listener calls.
 */
import type { BrokerId } from "../../common/index.js";
import type { Logger, Timer, Timers } from "../../ports/index.js";
import { brokerHeartbeat, brokerRegistration } from "../../protocol/index.js";
import type { ControllerChannel } from "../forwarding/controller-channel.driver.js";
import { BrokerLifecycle } from "./broker-lifecycle.js";
import {
  DEFAULT_BROKER_LIFECYCLE_CONFIG,
  type BrokerLifecycleManagerConfig,
} from "./lifecycle-config.js";
import {
  heartbeatAtVersion,
  type BrokerIdentity,
  type BrokerState,
  type Communication,
  type ControlledShutdownOutcome,
  type HeartbeatReport,
  type LifecycleEvent,
  type LifecycleStep,
  type Registration,
} from "./lifecycle-types.js";
import { BrokerLifecycleStoppedError, Milestone } from "./milestone.js";
import { OfflineDirWatch } from "./offline-dir-watch.driver.js";

/** Everything the manager needs from the node. */
export interface BrokerLifecycleManagerOptions {
  readonly identity: BrokerIdentity;
  readonly config?: Partial<BrokerLifecycleManagerConfig>;
  readonly channel: ControllerChannel;
  readonly timers: Timers;
  readonly logger: Logger;
  /** Read at every heartbeat: the metadata offset applied and the offline log dirs. */
  readonly heartbeatReport: () => HeartbeatReport;
  /**
   * Makes a controller-assigned id durable (meta.properties of every log dir) before the broker
   * uses it; required when `identity.nodeId` is undefined.
   */
  readonly persistAssignedBrokerId?: (brokerId: BrokerId) => Promise<void>;
}

/** The lifecycle driver; see the file comment. */
export class BrokerLifecycleManager {
  private readonly lifecycle: BrokerLifecycle;
  private readonly config: BrokerLifecycleManagerConfig;
  private readonly listeners = new Set<(event: LifecycleEvent) => void>();
  private readonly registered = new Milestone<Registration>();
  private readonly caughtUp = new Milestone<void>();
  private readonly unfenced = new Milestone<void>();
  private readonly stopped = new Milestone<void>();
  private communicationTimer: Timer | undefined;
  private registrationTimer: Timer | undefined;
  private readonly offlineDirWatch: OfflineDirWatch;
  private isInFlight = false;
  private isImmediatePending = false;
  private wasApproved = false;

  constructor(private readonly options: BrokerLifecycleManagerOptions) {
    this.config = {
      ...DEFAULT_BROKER_LIFECYCLE_CONFIG,
      communicationTimeoutMs: 4500,
      logDirFailureTimeoutMs: 30_000,
      ...options.config,
    };
    this.lifecycle = new BrokerLifecycle(options.identity, this.config);
    this.offlineDirWatch = new OfflineDirWatch({
      timers: options.timers,
      logger: options.logger,
      timeoutMs: this.config.logDirFailureTimeoutMs,
      offlineDirs: () => options.heartbeatReport().offlineLogDirs,
      isAcknowledged: (dir) => this.lifecycle.isOfflineDirAcknowledged(dir),
      onUnreported: (dirs) => this.apply(this.lifecycle.offlineDirsUnreported(dirs)),
    });
  }

  /** Kafka's BrokerState of this broker. */
  get state(): BrokerState {
    return this.lifecycle.state;
  }

  /** The accepted registration, or undefined while (re)registering. */
  get registration(): Registration | undefined {
    return this.lifecycle.registration;
  }

  /** Whether the controller last said this broker is fenced. */
  get isFenced(): boolean {
    return this.lifecycle.isFenced;
  }

  /** Calls `listener` with every lifecycle event; returns the function that stops it. */
  onEvent(listener: (event: LifecycleEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once registered (with the assigned id persisted); rejects if stopped first. */
  whenRegistered(): Promise<Registration> {
    return this.registered.wait();
  }

  /** Resolves once the controller says the broker caught up with the metadata log. */
  whenCaughtUp(): Promise<void> {
    return this.caughtUp.wait();
  }

  /** Resolves the first time the controller unfences the broker. */
  whenUnfenced(): Promise<void> {
    return this.unfenced.wait();
  }

  /** Resolves when the lifecycle has stopped (ready to shut down, or given up). */
  whenStopped(): Promise<void> {
    return this.stopped.wait();
  }

  /** Starts registering; the initial registration timeout starts now. */
  start(): void {
    this.registrationTimer = this.options.timers.schedule(
      this.config.initialRegistrationTimeoutMs,
      () => this.apply(this.lifecycle.registrationTimedOut()),
    );
    this.apply(this.lifecycle.start());
  }

  /** The node applied the caught-up metadata (with `unfenceReadiness` "explicit"). */
  setReadyToUnfence(): void {
    this.apply(this.lifecycle.setReadyToUnfence());
  }

  /**
   * A log dir went offline (or came back): the controller hears of it in a heartbeat sent now,
   * and the broker stops if it has not heard of every offline dir in `logDirFailureTimeoutMs`.
   */
  logDirsChanged(): void {
    this.apply(this.lifecycle.communicateNow());
    if (this.lifecycle.state !== "shuttingDown") this.offlineDirWatch.dirsChanged();
  }

  /**
   * Asks the controller to move this broker out of every leadership and ISR, and resolves when
   * it says the broker may stop, or when `controlledShutdownTimeoutMs` passes.
   */
  async beginControlledShutdown(): Promise<ControlledShutdownOutcome> {
    if (
      this.lifecycle.state !== "running" &&
      this.lifecycle.state !== "pendingControlledShutdown"
    ) {
      this.apply(this.lifecycle.shutDown());
      return "notRunning";
    }
    this.apply(this.lifecycle.beginControlledShutdown());
    const deadline = this.options.timers.schedule(this.config.controlledShutdownTimeoutMs, () => {
      this.options.logger.warn("the controller did not approve the controlled shutdown in time");
      this.apply(this.lifecycle.shutDown());
    });
    await this.stopped.wait();
    deadline.cancel();
    return this.wasApproved ? "approved" : "timedOut";
  }

  /** Stops all communication at once. */
  close(): void {
    this.apply(this.lifecycle.shutDown());
  }

  private apply(step: LifecycleStep): void {
    for (const event of step.events) this.handleEvent(event);
    if (this.lifecycle.state === "shuttingDown") {
      this.stop();
      return;
    }
    if (step.communicateInMs !== undefined) this.schedule(step.communicateInMs);
  }

  private handleEvent(event: LifecycleEvent): void {
    this.options.logger.info("broker lifecycle event", { ...event });
    switch (event.kind) {
      case "registered":
        // With an assigned id, the milestone waits for the id to be persisted (see communicate).
        if (!event.isAssignedId) this.registered.reach(event.registration);
        break;
      case "caughtUp":
        this.caughtUp.reach();
        break;
      case "unfenced":
        this.unfenced.reach();
        break;
      case "readyToShutDown":
      case "fenced":
      case "registrationTimedOut":
      case "registrationLost":
      case "offlineDirsUnreported":
        break;
    }
    for (const listener of this.listeners) listener(event);
  }

  private stop(): void {
    this.communicationTimer?.cancel();
    this.registrationTimer?.cancel();
    this.offlineDirWatch.close();
    const reason = "the broker is shutting down";
    this.registered.abandon(new BrokerLifecycleStoppedError("registered", reason));
    this.caughtUp.abandon(new BrokerLifecycleStoppedError("caught up", reason));
    this.unfenced.abandon(new BrokerLifecycleStoppedError("unfenced", reason));
    this.stopped.reach();
  }

  private schedule(delayMs: number): void {
    this.communicationTimer?.cancel();
    if (this.isInFlight) {
      // One request at a time: an urgent one goes out as soon as the current one is answered.
      if (delayMs === 0) this.isImmediatePending = true;
      return;
    }
    this.communicationTimer = this.options.timers.schedule(delayMs, () => {
      this.communicationTimer = undefined;
      void this.communicate();
    });
  }

  private async communicate(): Promise<void> {
    const communication = this.lifecycle.nextCommunication(this.options.heartbeatReport());
    if (communication === undefined) return;
    this.isInFlight = true;
    const step = await this.exchange(communication);
    const persisted = await this.maybePersistAssignedId(step);
    this.isInFlight = false;
    if (!persisted) return;
    const immediate = this.isImmediatePending;
    this.isImmediatePending = false;
    const next =
      immediate && step.communicateInMs !== undefined ? { ...step, communicateInMs: 0 } : step;
    this.apply(next);
  }

  /** Sends one request and feeds the answer (or the failure) to the lifecycle. */
  private async exchange(communication: Communication): Promise<LifecycleStep> {
    const timeoutMs = this.config.communicationTimeoutMs;
    if (communication.kind === "registration") {
      const result = await this.options.channel.send(brokerRegistration, communication.body, {
        timeoutMs,
      });
      if (result.kind === "response") return this.lifecycle.onRegistrationResponse(result.body);
      this.options.logger.warn("broker registration failed", { problem: result.message });
      return this.lifecycle.onCommunicationFailed();
    }
    const { body } = communication;
    let sent = body;
    const atVersion = (apiVersion: number) => (sent = heartbeatAtVersion(body, apiVersion));
    const result = await this.options.channel.send(brokerHeartbeat, atVersion, { timeoutMs });
    if (result.kind === "response") {
      const step = this.lifecycle.onHeartbeatResponse(result.body, sent.offlineLogDirs);
      // Only the controller's answer to a heartbeat that asked to shut down approves it.
      if (step.events.some((event) => event.kind === "readyToShutDown")) this.wasApproved = true;
      return step;
    }
    this.options.logger.warn("broker heartbeat failed", { problem: result.message });
    return this.lifecycle.onCommunicationFailed();
  }

  /**
   * Persists an id the controller just assigned, before anything uses it: a broker that crashed
   * after heartbeating under an id it had not written down would come back as a stranger.
   * Returns false when that failed and the lifecycle stopped.
   */
  private async maybePersistAssignedId(step: LifecycleStep): Promise<boolean> {
    const event = step.events.find((candidate) => candidate.kind === "registered");
    if (event === undefined || event.kind !== "registered" || !event.isAssignedId) return true;
    const persist = this.options.persistAssignedBrokerId;
    try {
      if (persist === undefined) throw new Error("no way to persist an assigned broker id");
      await persist(event.registration.brokerId);
    } catch (cause) {
      this.options.logger.error("could not persist the assigned broker id", {
        brokerId: event.registration.brokerId,
        error: String(cause),
      });
      this.registered.abandon(
        new BrokerLifecycleStoppedError("registered", "the assigned id was not persisted", {
          cause,
        }),
      );
      this.apply(this.lifecycle.shutDown());
      return false;
    }
    this.registered.reach(event.registration);
    return true;
  }
}
