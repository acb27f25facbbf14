/**
 * The `GET /health` route: whether the node is serving, and if not, why. A load balancer or an
 * orchestrator reads the status code; a person reads the reasons.
 */
import { assert, type LeaderEpoch, type NodeId } from "../common/index.js";
import { jsonResponse, type HttpImmediateRoute } from "./http-types.js";

/** A value of Kafka's `process.roles`. */
export type ProcessRole = "broker" | "controller";

/** Kafka's BrokerState, in our spelling: the broker lifecycle from start to shutdown. */
export type BrokerState =
  "notRunning" | "starting" | "recovery" | "running" | "pendingControlledShutdown" | "shuttingDown";

export interface BrokerHealth {
  readonly state: BrokerState;
  /** True once the controller quorum accepted the broker's registration. */
  readonly isRegistered: boolean;
  /** True while the controller keeps the broker fenced (not caught up, or silent too long). */
  readonly isFenced: boolean;
}

/** What the node knows of the controller quorum, as any voter or observer does. */
export interface QuorumHealth {
  /** The quorum leader (the active controller), or undefined while none is known. */
  readonly leaderId: NodeId | undefined;
  readonly leaderEpoch: LeaderEpoch;
}

export interface LogDirHealth {
  readonly path: string;
  /** True after an I/O error took the dir offline. */
  readonly isOffline: boolean;
}

/** The node's state as the health check needs it; plain data, assembled by the node. */
export interface NodeHealth {
  readonly nodeId: NodeId;
  readonly roles: readonly ProcessRole[];
  /** Present exactly when `roles` includes "broker". */
  readonly broker: BrokerHealth | undefined;
  readonly quorum: QuorumHealth;
  readonly logDirs: readonly LogDirHealth[];
}

/** Gives the node's health at the moment of asking. */
export interface HealthSource {
  health(): NodeHealth;
}

export type HealthVerdict =
  | { readonly kind: "serving" }
  | { readonly kind: "unavailable"; readonly reasons: readonly string[] };

/** Decides whether a node in state `health` is serving, listing every reason it is not. */
export function assessHealth(health: NodeHealth): HealthVerdict {
  const isBroker = health.roles.includes("broker");
  assert(isBroker === (health.broker !== undefined), "broker health exactly for a broker role");
  const reasons: string[] = [];
  if (health.broker !== undefined) reasons.push(...brokerReasons(health.broker));
  if (health.quorum.leaderId === undefined) reasons.push("no controller quorum leader is known");
  for (const logDir of health.logDirs) {
    if (logDir.isOffline) reasons.push(`log dir ${logDir.path} is offline`);
  }
  return reasons.length === 0 ? { kind: "serving" } : { kind: "unavailable", reasons };
}

function brokerReasons(broker: BrokerHealth): string[] {
  const reasons: string[] = [];
  if (!broker.isRegistered) {
    reasons.push("broker is not registered with the controller quorum");
  } else if (broker.isFenced) {
    reasons.push("broker is fenced by the controller");
  }
  if (broker.state !== "running") reasons.push(`broker state is ${broker.state}`);
  return reasons;
}

/**
 * `GET /health`: 200 with `"status":"ok"` when the node is serving, else 503 with
 * `"status":"unavailable"` and the reasons; both carry the facts the verdict was made from.
 */
export function healthRoute(source: HealthSource): HttpImmediateRoute {
  return {
    method: "GET",
    path: "/health",
    handle: () => {
      const health = source.health();
      const verdict = assessHealth(health);
      const isServing = verdict.kind === "serving";
      return jsonResponse(isServing ? 200 : 503, {
        status: isServing ? "ok" : "unavailable",
        reasons: isServing ? [] : verdict.reasons,
        nodeId: health.nodeId,
        roles: health.roles,
        broker: health.broker ?? null,
        quorum: {
          leaderId: health.quorum.leaderId ?? null,
          leaderEpoch: health.quorum.leaderEpoch,
        },
        logDirs: health.logDirs,
      });
    },
  };
}
