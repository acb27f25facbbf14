/**
 * The checks of one AlterPartition partition entry, in Kafka's order (ReplicationControlManager
 * validateAlterPartitionData). An epoch newer than ours means this controller is behind, so the
 * leader is sent to find the active one (NOT_CONTROLLER); an older leader epoch is a deposed
 * leader (FENCED_LEADER_EPOCH); a request from a broker that is not the leader is refused as
 * INVALID_REQUEST, as Kafka does; an older partition epoch is a stale view
 * (INVALID_UPDATE_VERSION).
 * The new ISR must be replicas, without duplicates, with the leader; a recovering leader
 * (KIP-704) keeps a one-member ISR and only moves to recovered. Members that are unregistered,
 * fenced, shutting down (KIP-841) or of another broker epoch (KIP-903) are ineligible.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage, PartitionRegistration } from "../../metadata/index.js";
import { hasDuplicateReplicas } from "../election/index.js";

/** AlterPartition's LeaderRecoveryState byte: 0 recovered, 1 recovering. */
export const LeaderRecoveryStateCode = { RECOVERED: 0, RECOVERING: 1 } as const;

/** One member of the proposed ISR; brokerEpoch -1 skips the epoch check (versions 0-2). */
export interface IsrMember {
  readonly brokerId: BrokerId;
  readonly brokerEpoch: number;
}

/** The parts of a partition entry the checks read. */
export interface ProposedPartitionState {
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
  readonly newIsr: readonly IsrMember[];
  readonly leaderRecoveryState: number;
}

function checkEpochs(
  brokerId: BrokerId,
  partition: PartitionRegistration,
  proposed: ProposedPartitionState,
): number {
  if (proposed.leaderEpoch > partition.leaderEpoch) return ErrorCode.NOT_CONTROLLER;
  if (proposed.partitionEpoch > partition.partitionEpoch) return ErrorCode.NOT_CONTROLLER;
  if (proposed.leaderEpoch < partition.leaderEpoch) return ErrorCode.FENCED_LEADER_EPOCH;
  if (brokerId !== partition.leader) return ErrorCode.INVALID_REQUEST;
  if (proposed.partitionEpoch < partition.partitionEpoch) return ErrorCode.INVALID_UPDATE_VERSION;
  return ErrorCode.NONE;
}

function checkIsrShape(partition: PartitionRegistration, proposed: ProposedPartitionState): number {
  const isr = proposed.newIsr.map((member) => member.brokerId);
  const isOfReplicas = isr.every((replica) => partition.replicas.includes(replica));
  if (!isOfReplicas || hasDuplicateReplicas(isr)) return ErrorCode.INVALID_REQUEST;
  if (!isr.includes(partition.leader)) return ErrorCode.INVALID_REQUEST;
  const isRecovering = proposed.leaderRecoveryState === LeaderRecoveryStateCode.RECOVERING;
  if (proposed.leaderRecoveryState !== LeaderRecoveryStateCode.RECOVERED && !isRecovering) {
    return ErrorCode.INVALID_REQUEST;
  }
  if (isRecovering && isr.length > 1) return ErrorCode.INVALID_REQUEST;
  if (isRecovering && partition.leaderRecoveryState === "recovered") {
    return ErrorCode.INVALID_REQUEST;
  }
  return ErrorCode.NONE;
}

/** Why `member` may not join the ISR, or undefined when it may. */
export function ineligibility(image: MetadataImage, member: IsrMember): string | undefined {
  const registration = image.cluster.brokers.get(member.brokerId);
  if (registration === undefined) return "not registered";
  if (registration.isInControlledShutdown) return "shutting down";
  if (registration.isFenced) return "fenced";
  if (member.brokerEpoch !== -1 && member.brokerEpoch !== registration.epoch) {
    return `broker epoch ${member.brokerEpoch}, registered with ${registration.epoch}`;
  }
  return undefined;
}

/**
 * The error code for one partition entry from `brokerId`, or NONE when it may be applied.
 * `requestVersion` picks the code for ineligible members: INELIGIBLE_REPLICA from version 2,
 * OPERATION_NOT_ATTEMPTED before.
 */
export function validateAlterPartition(options: {
  image: MetadataImage;
  brokerId: BrokerId;
  partition: PartitionRegistration;
  proposed: ProposedPartitionState;
  requestVersion: number;
}): number {
  const { image, brokerId, partition, proposed, requestVersion } = options;
  const epochError = checkEpochs(brokerId, partition, proposed);
  if (epochError !== ErrorCode.NONE) return epochError;
  const shapeError = checkIsrShape(partition, proposed);
  if (shapeError !== ErrorCode.NONE) return shapeError;
  const isAnyIneligible = proposed.newIsr.some(
    (member) => ineligibility(image, member) !== undefined,
  );
  if (!isAnyIneligible) return ErrorCode.NONE;
  return requestVersion > 1 ? ErrorCode.INELIGIBLE_REPLICA : ErrorCode.OPERATION_NOT_ATTEMPTED;
}
