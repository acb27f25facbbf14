/**
 * The shape, timings and messages of the cluster simulation. Raft runs with the Raft
 * simulation's timings (Kafka's scaled by 0.3); the broker side is scaled further (heartbeat 150
 * ms, session 900 ms, liveness scan 100 ms) so that a few simulated seconds of partitions fence
 * brokers and move leaders many times.
 */
import type {
  BrokerHeartbeatResponse,
  BrokerRegistrationResponse,
} from "../../src/protocol/index.js";
import type { HeartbeatBody, RegistrationBody } from "../../src/broker/index.js";

/** The controllers are Raft voters 1..3; the brokers are observers 4..8 with the same ids. */
export const controllerIds: readonly number[] = [1, 2, 3];
export const brokerIds: readonly number[] = [4, 5, 6, 7, 8];

/** The cluster id every node is formatted with. */
export const clusterId = "sluice-cluster-sim";

/** `broker.heartbeat.interval.ms` and `broker.session.timeout.ms`, scaled. */
export const brokerHeartbeatIntervalMs = 150;
export const brokerSessionTimeoutMs = 900;
/** How often the active controller scans heartbeat deadlines. */
export const livenessScanIntervalMs = 100;
/** How long a broker waits for a controller's answer before it counts the attempt as failed. */
export const brokerRequestTimeoutMs = 400;

/** How long the faults last. */
export const faultPhaseMs = { min: 2500, max: 4500 } as const;
/** The longest the set-up (registration, topic creation) and the final quiesce may take. */
export const setupBoundMs = 6000;
export const quiesceBoundMs = 8000;

/** A broker's request to the controller listener: registration or heartbeat. */
export type BrokerRequest =
  | { readonly api: "registration"; readonly body: RegistrationBody }
  | { readonly api: "heartbeat"; readonly body: HeartbeatBody };

/** The controller's answer to a BrokerRequest. */
export type BrokerResponse =
  | { readonly api: "registration"; readonly body: BrokerRegistrationResponse }
  | { readonly api: "heartbeat"; readonly body: BrokerHeartbeatResponse };

/**
 * A message of the broker-to-controller channel, beside Raft's on the same simulated links. The
 * requester's incarnation makes a response reach only the process that asked, as a TCP
 * connection dies with its process.
 */
export type ClusterEnvelope =
  | {
      readonly kind: "brokerRequest";
      readonly requestId: number;
      readonly requesterIncarnation: number;
      readonly request: BrokerRequest;
    }
  | {
      readonly kind: "brokerResponse";
      readonly requestId: number;
      readonly requesterIncarnation: number;
      readonly response: BrokerResponse;
    };
