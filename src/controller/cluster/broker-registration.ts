/**
 * BrokerRegistration: a broker process announces itself (id, incarnation, listeners, rack, log
 * dirs, supported features) and gets a broker epoch. Follows Kafka's ClusterControlManager: the
 * cluster id must match; a new incarnation may not take an id whose owner still has a live
 * session; the broker must support every finalized feature level; a new registration starts
 * fenced. The broker epoch is the offset of the RegisterBrokerRecord, as in Kafka.
 *
 * Sluice extension (after RocketMQ's controller mode): a broker may register with id -1 and is
 * given the lowest unused id at or above the base (1000). Real Kafka brokers always send
 * their configured node.id, so they never take this path.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId, Uuid } from "../../common/index.js";
import type { BrokerRegistration, MetadataImage } from "../../metadata/index.js";
import type {
  BrokerRegistrationRequest,
  BrokerRegistrationResponse,
  MetadataRecord,
} from "../../protocol/index.js";
import { hasDirectoryAssignment, unsupportedFeatureMessage } from "../features/index.js";
import { BrokerHeartbeats } from "./broker-heartbeats.js";
import {
  announcedEndpointsAndFeatures,
  metadataVersionOf,
  registerBrokerRecord,
} from "./cluster-records.js";
import { imageAfter } from "./broker-fencing.js";
import type { ClusterControlConfig } from "./cluster-control-config.js";
import type { ControllerResult } from "./controller-result.js";
import type { PartitionHooks } from "./partition-hooks.js";

/** The broker id a broker sends to ask the controller for one (Sluice extension). */
export const ASSIGN_BROKER_ID = -1;

export interface BrokerRegistrationContext {
  readonly image: MetadataImage;
  readonly heartbeats: BrokerHeartbeats;
  readonly nowMs: number;
  readonly clusterId: string;
  readonly config: ClusterControlConfig;
  readonly hooks: PartitionHooks;
  /**
   * The offset the first record of this operation's batch will get. The active controller is the
   * metadata log's only writer and appends each operation's records atomically, in queue order,
   * so the driver knows it; it must append the batch at exactly this offset (Kafka's
   * requiredBaseOffset) or refuse the operation with NOT_CONTROLLER.
   */
  readonly nextWriteOffset: number;
}

export interface BrokerRegistrationResult extends ControllerResult<BrokerRegistrationResponse> {
  readonly heartbeats: BrokerHeartbeats;
  /**
   * The broker's id, the assigned one for a broker that sent -1, or undefined on an error. A
   * broker that sent -1 also finds it in the response's Sluice tagged field `assignedBrokerId`
   * (docs/decisions/0006-assigned-broker-ids.md).
   */
  readonly brokerId: BrokerId | undefined;
}

function refused(context: BrokerRegistrationContext, errorCode: number): BrokerRegistrationResult {
  const response = { throttleTimeMs: 0, errorCode, brokerEpoch: -1, assignedBrokerId: -1 };
  return { records: [], response, heartbeats: context.heartbeats, brokerId: undefined };
}

/** Handles a BrokerRegistration request (v0-v4). */
export function registerBroker(
  context: BrokerRegistrationContext,
  request: BrokerRegistrationRequest,
): BrokerRegistrationResult {
  const { image, heartbeats, nowMs } = context;
  if (request.clusterId !== context.clusterId) {
    return refused(context, ErrorCode.INCONSISTENT_CLUSTER_ID);
  }
  if (request.brokerId < ASSIGN_BROKER_ID) return refused(context, ErrorCode.INVALID_REQUEST);
  const brokerId = brokerIdFor(image, request, context.config.brokerIdBase);
  const existing = image.cluster.brokers.get(brokerId);
  if (existing !== undefined && existing.incarnationId === request.incarnationId) {
    // The same process asking again (its response was lost): the registration stands.
    const response = accepted(request, brokerId, existing.epoch);
    const touched = heartbeats.touched(brokerId, nowMs, -1);
    return { records: [], response, heartbeats: touched, brokerId };
  }
  if (existing !== undefined && isLive(context, existing)) {
    return refused(context, ErrorCode.DUPLICATE_BROKER_REGISTRATION);
  }
  if (unsupportedFeatureMessage(image.features, request.features) !== undefined) {
    return refused(context, ErrorCode.UNSUPPORTED_VERSION);
  }
  if (hasInvalidDirectories(image, request.logDirs)) {
    return refused(context, ErrorCode.INVALID_REGISTRATION);
  }
  return newRegistration(context, request, brokerId, existing);
}

/** A registration of a new incarnation, fenced, with the epoch of its record's offset. */
function newRegistration(
  context: BrokerRegistrationContext,
  request: BrokerRegistrationRequest,
  brokerId: BrokerId,
  existing: BrokerRegistration | undefined,
): BrokerRegistrationResult {
  const { nowMs } = context;
  const moves = restartMoves(context, brokerId, existing);
  const brokerEpoch = context.nextWriteOffset + moves.length;
  const record = registerBrokerRecord(context.image, {
    brokerId,
    isMigratingZkBroker: request.isMigratingZkBroker,
    incarnationId: request.incarnationId,
    brokerEpoch,
    ...announcedEndpointsAndFeatures(request),
    rack: request.rack,
    fenced: true,
    inControlledShutdown: false,
    logDirs: [...request.logDirs],
  });
  const response = accepted(request, brokerId, brokerEpoch);
  const heartbeats = context.heartbeats.touched(brokerId, nowMs, -1);
  return { records: [...moves, record], response, heartbeats, brokerId };
}

/**
 * The partition changes that go ahead of a new incarnation's record, in the same batch. An old
 * incarnation that died without being fenced yet still leads partitions: they move first, so no
 * partition is led by a process that no longer exists. Then, as Kafka's registerBroker calls
 * its unclean-shutdown handler for every new incarnation, the broker leaves the ISRs and ELRs it
 * may no longer deserve (only while eligible leader replicas are on; KIP-966). Like Kafka at the
 * version followed, every new incarnation counts as a possibly unclean restart: the request's
 * previousBrokerEpoch is not consulted.
 */
function restartMoves(
  context: BrokerRegistrationContext,
  brokerId: BrokerId,
  existing: BrokerRegistration | undefined,
): MetadataRecord[] {
  const { image, hooks } = context;
  const isStillUnfenced = existing !== undefined && !existing.isFenced;
  const fenced = isStillUnfenced ? hooks.brokerFenced(image, brokerId) : [];
  return [...fenced, ...hooks.brokerUncleanShutdown(imageAfter(image, fenced), brokerId)];
}

/**
 * A successful response. A broker that asked for an id is told which one it got, in the Sluice
 * tagged field; a broker that sent its own id gets the default -1 there, which is not encoded.
 */
function accepted(
  request: BrokerRegistrationRequest,
  brokerId: BrokerId,
  brokerEpoch: number,
): BrokerRegistrationResponse {
  const assignedBrokerId = request.brokerId === ASSIGN_BROKER_ID ? brokerId : -1;
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, brokerEpoch, assignedBrokerId };
}

/** Whether the registration belongs to a broker that is unfenced and still heartbeating. */
function isLive(context: BrokerRegistrationContext, broker: BrokerRegistration): boolean {
  if (broker.isFenced) return false;
  const { heartbeats, nowMs, config } = context;
  return heartbeats.hasLiveSession(broker.id, nowMs, config.sessionTimeoutMs);
}

/**
 * The id to register: the request's, or for -1 the id a broker of the same incarnation already
 * got (a retried request), else the lowest id at or above the base that no broker or controller
 * holds.
 */
function brokerIdFor(
  image: MetadataImage,
  request: BrokerRegistrationRequest,
  brokerIdBase: number,
): BrokerId {
  if (request.brokerId !== ASSIGN_BROKER_ID) return request.brokerId as BrokerId;
  for (const broker of image.cluster.brokers.values()) {
    if (broker.incarnationId === request.incarnationId) return broker.id;
  }
  let candidate = brokerIdBase;
  while (
    image.cluster.brokers.has(candidate as BrokerId) ||
    image.cluster.controllers.has(candidate as BrokerId)
  ) {
    candidate += 1;
  }
  return candidate as BrokerId;
}

/**
 * Kafka's rules for log dirs once the metadata.version assigns replicas to them: at least one,
 * no duplicates, none of the reserved ids (unassigned, lost, migrating).
 */
function hasInvalidDirectories(image: MetadataImage, logDirs: readonly string[]): boolean {
  if (logDirs.length === 0) return hasDirectoryAssignment(metadataVersionOf(image));
  const reserved = new Set<string>([
    reservedDirectory(0),
    reservedDirectory(1),
    reservedDirectory(2),
  ]);
  const seen = new Set<string>();
  for (const directory of logDirs) {
    if (reserved.has(directory) || seen.has(directory)) return true;
    seen.add(directory);
  }
  return false;
}

function reservedDirectory(n: number): Uuid {
  return n.toString(16).padStart(32, "0") as Uuid;
}
