/**
 * Why a partition got the leader it got. Every partition change that touches leadership carries
 * one ElectionReport; the quorum controller driver logs it. Kafka's PartitionChangeRecord has no
 * tagged field for an election's reason (its tags 0-8 are all partition state), so the reason
 * lives in the log and not in the metadata log.
 */
import type { BrokerId, Uuid } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { Logger } from "../../ports/index.js";

/**
 * The kind of election asked for, Kafka's PartitionChangeBuilder.Election: "online" keeps the
 * partition led from the ISR (or ELR); "preferred" also moves leadership to the first replica;
 * "unclean" may finally pick a live replica outside the ISR and ELR, losing committed data.
 */
export type ElectionMode = "preferred" | "online" | "unclean";

/**
 * Where the leader came from: "kept" (the current leader is still valid), "preferred" (the
 * first replica, by a preferred election), "isr", "elr" (KIP-966: the ISR is empty and an
 * eligible leader replica took over), "lastKnownLeader" (KIP-966 balanced recovery: ISR and ELR
 * are empty and the last leader came back), "unclean" (a live replica outside ISR and ELR) or
 * "none" (nobody could lead; the partition is offline).
 */
export type ElectionOutcome =
  "kept" | "preferred" | "isr" | "elr" | "lastKnownLeader" | "unclean" | "none";

/**
 * Whether a replica's broker may lead: "active" (registered, unfenced, not shutting down, and
 * the replica's log dir is online), or the first reason it may not.
 */
export type ReplicaState =
  | "active"
  | "leaving"
  | "uncleanShutdown"
  | "unregistered"
  | "fenced"
  | "inControlledShutdown"
  | "directoryOffline";

/** One replica the election looked at. */
export interface ElectionCandidate {
  readonly replica: BrokerId;
  readonly state: ReplicaState;
  readonly isInIsr: boolean;
  readonly isInElr: boolean;
  readonly isLastKnownLeader: boolean;
}

/** The structured reason for one partition's leader after a change. */
export interface ElectionReport {
  readonly topicId: Uuid;
  readonly partitionId: number;
  /** What asked for the change, e.g. "broker 3 fenced" or "AlterPartition from broker 1". */
  readonly trigger: string;
  readonly mode: ElectionMode;
  readonly outcome: ElectionOutcome;
  readonly previousLeader: BrokerId;
  /** The leader after the change; NO_LEADER (-1) when the outcome is "none". */
  readonly leader: BrokerId;
  /** The replicas considered, in preference order, with their states at election time. */
  readonly candidates: readonly ElectionCandidate[];
}

function describeCandidate(candidate: ElectionCandidate): string {
  const sets = [
    candidate.isInIsr ? "isr" : undefined,
    candidate.isInElr ? "elr" : undefined,
    candidate.isLastKnownLeader ? "lastKnownLeader" : undefined,
  ].filter((set) => set !== undefined);
  const membership = sets.length === 0 ? "" : ` ${sets.join("+")}`;
  return `${candidate.replica}(${candidate.state}${membership})`;
}

/** One log line that says who leads the partition now and why. */
export function describeElection(report: ElectionReport, topicName?: string): string {
  const candidates = report.candidates.map(describeCandidate).join(", ");
  return (
    `partition ${topicName ?? report.topicId}-${report.partitionId} (${report.trigger}): ` +
    `${report.mode} election, ` +
    `outcome ${report.outcome}, leader ${report.previousLeader} -> ${report.leader}; ` +
    `candidates [${candidates}]`
  );
}

/** Logs `report` by topic name; elections of internal topics are chatter, at debug. */
export function logElection(logger: Logger, image: MetadataImage, report: ElectionReport): void {
  const name = image.topics.byId.get(report.topicId)?.name;
  const level = name?.startsWith("__") === true ? "debug" : "info";
  logger[level](describeElection(report, name));
}

/** True when the report records a change of leader (including to or from no leader). */
export function isLeaderChange(report: ElectionReport): boolean {
  return report.leader !== report.previousLeader;
}
