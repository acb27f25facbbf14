/**
 * The values the broker lifecycle works with: who the broker is, what it reports, where it
 * stands, and what it tells the rest of the node.
 */
import type { BrokerId, NodeId, Uuid } from "../../common/index.js";

/** An advertised listener, as BrokerRegistration carries it. */
export interface AdvertisedListener {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** Kafka's SecurityProtocol id: 0 PLAINTEXT, 1 SSL, 2 SASL_PLAINTEXT, 3 SASL_SSL. */
  readonly securityProtocol: number;
}

/** A feature range the broker supports (metadata.version and others). */
export interface SupportedFeature {
  readonly name: string;
  readonly minSupportedVersion: number;
  readonly maxSupportedVersion: number;
}

/** What a broker says about itself when it registers; fixed for one process. */
export interface BrokerIdentity {
  /** `node.id`, or undefined when the controller is to assign one (a Sluice extension). */
  readonly nodeId: NodeId | undefined;
  readonly clusterId: string;
  /** A random Uuid drawn anew at every process start (Kafka's incarnation id). */
  readonly incarnationId: Uuid;
  readonly listeners: readonly AdvertisedListener[];
  readonly rack: string | null;
  /** The directory ids of the broker's log dirs (KIP-858). */
  readonly logDirIds: readonly Uuid[];
  readonly features: readonly SupportedFeature[];
  /** The broker epoch the clean-shutdown marker recorded, or -1 (KIP-966). */
  readonly previousBrokerEpoch: number;
}

/** What a heartbeat reports, read from the node when it is sent. */
export interface HeartbeatReport {
  /** The highest metadata log offset the broker's metadata loader has applied. */
  readonly metadataOffset: number;
  readonly offlineLogDirs: readonly Uuid[];
}

/** The registration the controller accepted. */
export interface Registration {
  readonly brokerId: BrokerId;
  /** The offset of the broker's RegisterBrokerRecord in the metadata log. */
  readonly brokerEpoch: number;
}

/**
 * Kafka's BrokerState, as far as the lifecycle goes:
 * - notRunning: not started;
 * - starting: registering, then registered and fenced while catching up with the metadata log;
 * - recovery: caught up, still fenced until ready and unfenced by the controller;
 * - running: unfenced (the controller may fence it again; it stays running and heartbeats on);
 * - pendingControlledShutdown: asked to shut down, waiting for the controller's go-ahead;
 * - shuttingDown: terminal; no more communication.
 */
export type BrokerState =
  "notRunning" | "starting" | "recovery" | "running" | "pendingControlledShutdown" | "shuttingDown";

/** What the lifecycle tells the node. */
export type LifecycleEvent =
  | {
      readonly kind: "registered";
      readonly registration: Registration;
      /** True when the controller chose the id (the broker registered with -1). */
      readonly isAssignedId: boolean;
    }
  | { readonly kind: "caughtUp" }
  | { readonly kind: "unfenced" }
  | { readonly kind: "fenced" }
  | { readonly kind: "readyToShutDown" }
  | { readonly kind: "registrationTimedOut" }
  /** Failed log dirs were not reported in `log.dir.failure.timeout.ms`: the broker stops. */
  | { readonly kind: "offlineDirsUnreported"; readonly dirs: readonly Uuid[] }
  /** Heartbeats were refused (the registration is gone or stale); the broker registers again. */
  | { readonly kind: "registrationLost"; readonly errorCode: number };

/** How a controlled shutdown ended. */
export type ControlledShutdownOutcome =
  /** The controller moved every leadership away and said the broker may stop. */
  | "approved"
  /** The controller did not say so in `controlledShutdownTimeoutMs`: the broker stops anyway. */
  | "timedOut"
  /** The broker was not running (leads nothing), or had already stopped: it stops at once. */
  | "notRunning";

/** The request the lifecycle wants sent next. */
export type Communication =
  | { readonly kind: "registration"; readonly body: RegistrationBody }
  | { readonly kind: "heartbeat"; readonly body: HeartbeatBody };

/** A BrokerRegistration request body (v0-v4 fields). */
export interface RegistrationBody {
  readonly brokerId: number;
  readonly clusterId: string;
  readonly incarnationId: Uuid;
  readonly listeners: readonly AdvertisedListener[];
  readonly features: readonly SupportedFeature[];
  readonly rack: string | null;
  readonly isMigratingZkBroker: false;
  readonly logDirs: readonly Uuid[];
  readonly previousBrokerEpoch: number;
}

/** A BrokerHeartbeat request body (v0-v1 fields). */
export interface HeartbeatBody {
  readonly brokerId: number;
  readonly brokerEpoch: number;
  readonly currentMetadataOffset: number;
  readonly wantFence: boolean;
  readonly wantShutDown: boolean;
  readonly offlineLogDirs: readonly Uuid[];
}

/**
 * The heartbeat as sent at `apiVersion`: offline log dirs travel from v1 (KIP-858); a v0
 * controller cannot take them, and knows of log-dir failures by other means.
 */
export function heartbeatAtVersion(body: HeartbeatBody, apiVersion: number): HeartbeatBody {
  return apiVersion >= 1 ? body : { ...body, offlineLogDirs: [] };
}

/** What follows a change: when to communicate next (undefined: not at all) and the events. */
export interface LifecycleStep {
  readonly communicateInMs: number | undefined;
  readonly events: readonly LifecycleEvent[];
}
