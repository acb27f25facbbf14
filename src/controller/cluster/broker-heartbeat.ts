/**
 * BrokerHeartbeat: a broker's periodic proof of life, carrying how far it has read the metadata
 * log, whether it wants to be fenced or to shut down, and which log dirs failed. The broker's
 * registration moves through Kafka's BrokerHeartbeatManager states:
 *
 *   fenced ──caught up, not wantFence──▶ unfenced ──wantShutDown──▶ controlled shutdown
 *      ▲                                    │                            │
 *      └───────────── wantFence ────────────┴─── wantFence, or it leads ─┘
 *                                                 nothing (shut down now)
 *
 * A fenced broker that wants to shut down may do so at once; one in controlled shutdown may once
 * it leads no partition, and is fenced as it is told so. A broker is caught up once its metadata
 * offset reaches the offset of its own RegisterBrokerRecord (its broker epoch), which is Kafka's
 * unfencing rule.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId, Uuid } from "../../common/index.js";
import type { BrokerRegistration, MetadataImage } from "../../metadata/index.js";
import type {
  BrokerHeartbeatRequest,
  BrokerHeartbeatResponse,
  MetadataRecord,
} from "../../protocol/index.js";
import type { BrokerHeartbeats } from "./broker-heartbeats.js";
import { leadershipCount, registrationChangeRecord } from "./cluster-records.js";
import type { ControllerResult } from "./controller-result.js";
import type { PartitionHooks } from "./partition-hooks.js";

export interface BrokerHeartbeatContext {
  readonly image: MetadataImage;
  readonly heartbeats: BrokerHeartbeats;
  readonly nowMs: number;
  readonly hooks: PartitionHooks;
}

export interface BrokerHeartbeatResult extends ControllerResult<BrokerHeartbeatResponse> {
  readonly heartbeats: BrokerHeartbeats;
}

/** Where a registration stands, as the heartbeat sees it. */
type BrokerState = "fenced" | "unfenced" | "controlledShutdown";

/** What the heartbeat decided: records to write and what the response says. */
interface Decision {
  readonly records: readonly MetadataRecord[];
  readonly isFenced: boolean;
  readonly shouldShutDown: boolean;
}

function errorResponse(errorCode: number): BrokerHeartbeatResponse {
  return { throttleTimeMs: 0, errorCode, isCaughtUp: false, isFenced: true, shouldShutDown: false };
}

/** Handles a BrokerHeartbeat request (v0-v1). */
export function handleBrokerHeartbeat(
  context: BrokerHeartbeatContext,
  request: BrokerHeartbeatRequest,
): BrokerHeartbeatResult {
  const { image, nowMs } = context;
  const broker = image.cluster.brokers.get(request.brokerId as BrokerId);
  if (broker === undefined) {
    const response = errorResponse(ErrorCode.BROKER_ID_NOT_REGISTERED);
    return { records: [], response, heartbeats: context.heartbeats };
  }
  if (broker.epoch !== request.brokerEpoch) {
    const response = errorResponse(ErrorCode.STALE_BROKER_EPOCH);
    return { records: [], response, heartbeats: context.heartbeats };
  }
  const heartbeats = context.heartbeats.touched(broker.id, nowMs, request.currentMetadataOffset);
  const isCaughtUp = request.currentMetadataOffset >= broker.epoch;
  const offline = offlineDirectories(broker, request.offlineLogDirs);
  const online = broker.directories.filter((directory) => !offline.includes(directory));
  // A broker with no log dir left cannot host a replica: it is fenced as if it had asked.
  const wantFence = request.wantFence || (offline.length > 0 && online.length === 0);
  const directoryRecords =
    offline.length > 0 && online.length > 0
      ? [
          ...context.hooks.logDirsOffline(image, broker.id, offline),
          registrationChangeRecord(image, broker, { directories: online }),
        ]
      : [];
  const decision = decide(context, broker, {
    wantFence,
    wantShutDown: request.wantShutDown,
    isCaughtUp,
  });
  const response: BrokerHeartbeatResponse = {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    isCaughtUp,
    isFenced: decision.isFenced,
    shouldShutDown: decision.shouldShutDown,
  };
  return { records: [...directoryRecords, ...decision.records], response, heartbeats };
}

/** What the broker asks for, and whether it has read far enough to be unfenced. */
interface Wishes {
  readonly wantFence: boolean;
  readonly wantShutDown: boolean;
  readonly isCaughtUp: boolean;
}

function stateOf(broker: BrokerRegistration): BrokerState {
  if (broker.isFenced) return "fenced";
  return broker.isInControlledShutdown ? "controlledShutdown" : "unfenced";
}

/** The transition of Kafka's BrokerHeartbeatManager for the broker's state and wishes. */
function decide(
  context: BrokerHeartbeatContext,
  broker: BrokerRegistration,
  wishes: Wishes,
): Decision {
  const { image, hooks } = context;
  const state = stateOf(broker);
  if (state === "fenced") {
    if (wishes.wantShutDown) return { records: [], isFenced: true, shouldShutDown: true };
    if (wishes.wantFence || !wishes.isCaughtUp) {
      return { records: [], isFenced: true, shouldShutDown: false };
    }
    // Unfence first, so the elections that follow may pick this broker.
    const unfence = registrationChangeRecord(image, broker, { fence: "unfence" });
    const records = [unfence, ...hooks.brokerUnfenced(image, broker.id)];
    return { records, isFenced: false, shouldShutDown: false };
  }
  if (wishes.wantFence) {
    const fence = registrationChangeRecord(image, broker, { fence: "fence" });
    const records = [...hooks.brokerFenced(image, broker.id), fence];
    const shouldShutDown = wishes.wantShutDown || state === "controlledShutdown";
    return { records, isFenced: true, shouldShutDown };
  }
  if (state === "unfenced") {
    if (!wishes.wantShutDown) return { records: [], isFenced: false, shouldShutDown: false };
    const enter = registrationChangeRecord(image, broker, { enterControlledShutdown: true });
    const records = [enter, ...hooks.brokerShuttingDown(image, broker.id)];
    // As in Kafka, the broker learns it may stop on a later heartbeat, once the moves committed.
    return { records, isFenced: false, shouldShutDown: false };
  }
  // In controlled shutdown: done once it leads nothing, and then fenced, as Kafka's SHUTDOWN_NOW
  // state fences it, so that its next incarnation may register at once instead of waiting out
  // this one's session. Leaderships it gained since (or that could not move before) are moved
  // again first.
  if (leadershipCount(image, broker.id) === 0) {
    const fence = registrationChangeRecord(image, broker, { fence: "fence" });
    const records = [...hooks.brokerFenced(image, broker.id), fence];
    return { records, isFenced: true, shouldShutDown: true };
  }
  const records = hooks.brokerShuttingDown(image, broker.id);
  return { records, isFenced: false, shouldShutDown: false };
}

/** The broker's registered log dirs the heartbeat reports offline, in registration order. */
function offlineDirectories(broker: BrokerRegistration, offlineLogDirs: readonly string[]): Uuid[] {
  return broker.directories.filter((directory) => offlineLogDirs.includes(directory));
}
