/**
 * Running the PartitionChangeBuilder against an image: the topic's election settings, each
 * replica's eligibility and the record version come from the image, and the records and
 * election reports of one operation are gathered in one place.
 */
import type { BrokerId, Uuid } from "../../common/index.js";
import type { LeaderRecoveryState, MetadataImage, TopicImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { MetadataRecord, PartitionChangeRecord } from "../../protocol/index.js";
import type { ControllerResult } from "../cluster/controller-result.js";
import {
  METADATA_VERSION_LATEST,
  hasDirectoryAssignment,
  partitionRecordVersion,
} from "../features/index.js";
import type { ElectionMode, ElectionReport } from "./election-report.js";
import { isLeaderChange } from "./election-report.js";
import { buildPartitionChange } from "./partition-change-builder.js";
import type { PartitionChangeResult } from "./partition-change-builder.js";
import { defaultDirectory, replicaState } from "./replica-state.js";
import type { EligibilityOverrides } from "./replica-state.js";
import { isElrEnabled, topicElectionSettings } from "./topic-settings.js";
import type { ReplicationDefaults } from "./topic-settings.js";

/** The PartitionChangeRecord version that carries the KIP-966 ELR fields. */
export const ELR_PARTITION_CHANGE_RECORD_VERSION = 2;

/**
 * What a request-driven operation of the election, ISR and reassignment controls returns: the
 * records and response of every controller operation, and the elections for the driver to log.
 */
export interface PartitionControlResult<Response> extends ControllerResult<Response> {
  readonly elections: readonly ElectionReport[];
}

/** The records of one operation and the reports of the elections among them. */
export interface PartitionChanges {
  readonly records: MetadataRecord[];
  readonly elections: ElectionReport[];
}

/** The change wanted for one partition; absent targets keep the partition's value. */
export interface PartitionChangeRequest {
  /** What asked for the change, for the election report. */
  readonly trigger: string;
  /** The election mode; by default "unclean" where the topic allows it, else "online". */
  readonly mode?: ElectionMode;
  readonly overrides?: EligibilityOverrides;
  readonly targetIsr?: readonly BrokerId[];
  readonly targetReplicas?: readonly BrokerId[];
  readonly targetRemoving?: readonly BrokerId[];
  readonly targetAdding?: readonly BrokerId[];
  readonly targetLeaderRecoveryState?: LeaderRecoveryState;
  readonly uncleanShutdownReplicas?: readonly BrokerId[];
  readonly targetDirectory?: { readonly replica: BrokerId; readonly directory: Uuid };
}

export function noPartitionChanges(): PartitionChanges {
  return { records: [], elections: [] };
}

function metadataVersionOf(image: MetadataImage): number {
  return image.features.metadataVersion ?? METADATA_VERSION_LATEST;
}

/**
 * The PartitionChangeRecord version to write: the ELR version whenever ELR is on or the record
 * carries ELR fields (clearing them after ELR was turned off), else metadata.version's choice.
 */
export function partitionChangeRecordVersion(
  image: MetadataImage,
  record: PartitionChangeRecord,
): number {
  const hasElrFields = record.eligibleLeaderReplicas !== null || record.lastKnownElr !== null;
  if (hasElrFields || isElrEnabled(image)) return ELR_PARTITION_CHANGE_RECORD_VERSION;
  return partitionRecordVersion(metadataVersionOf(image));
}

/** `record` as a metadata record ready to propose. */
export function partitionChangeMetadataRecord(
  image: MetadataImage,
  record: PartitionChangeRecord,
): MetadataRecord {
  const version = partitionChangeRecordVersion(image, record);
  return { type: MetadataRecordType.PartitionChangeRecord, version, data: record };
}

/** Builds the change `request` asks of one partition of `topic`, with the cluster of `image`. */
export function changePartition(options: {
  image: MetadataImage;
  defaults: ReplicationDefaults;
  topic: TopicImage;
  partitionId: number;
  request: PartitionChangeRequest;
}): PartitionChangeResult | undefined {
  const { image, defaults, topic, partitionId, request } = options;
  const partition = topic.partitions.get(partitionId);
  if (partition === undefined) return undefined;
  const settings = topicElectionSettings(image, topic, defaults);
  const { mode, overrides, ...targets } = request;
  return buildPartitionChange({
    ...targets,
    topicId: topic.id,
    partitionId,
    partition,
    mode: mode ?? (settings.isUncleanLeaderElectionEnabled ? "unclean" : "online"),
    minIsr: settings.minIsr,
    isElrEnabled: settings.isElrEnabled,
    hasDirectories: hasDirectoryAssignment(metadataVersionOf(image)),
    stateOf: (replica) => replicaState(image, partition, replica, overrides),
    defaultDirectory: (replica) => defaultDirectory(image, replica),
  });
}

/** Adds the result's record (if any) to `changes`, and its election when the leader changed. */
export function addPartitionChange(
  image: MetadataImage,
  changes: PartitionChanges,
  result: PartitionChangeResult,
): void {
  if (result.record === undefined) return;
  changes.records.push(partitionChangeMetadataRecord(image, result.record));
  if (isLeaderChange(result.election)) changes.elections.push(result.election);
}
