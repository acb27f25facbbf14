/**
 * Kafka's PartitionChangeBuilder, in our own code: from a partition's registration and the
 * change wanted (a target ISR, replicas, adding and removing replicas, leader recovery state, an
 * election mode), at most one PartitionChangeRecord holding only the fields that change, and
 * the report of the election that decided the leader.
 *
 * The steps, in Kafka's order: complete a reassignment the target ISR allows; keep the KIP-966
 * eligible leader replicas; elect a leader (see leader-election.ts); bump the leader epoch when
 * replicas are removed; write the ELR, ISR and lastKnownElr fields; write replicas, directories,
 * adding and removing replicas and the leader recovery state where they differ. The leader epoch
 * is not bumped when only the ISR shrinks: Kafka needed that only before metadata.version 3.6.
 */
import { assert } from "../../common/index.js";
import type { BrokerId, Uuid } from "../../common/index.js";
import {
  LEADER_RECOVERY_STATE_NO_CHANGE,
  NO_LEADER,
  NO_LEADER_CHANGE,
} from "../../metadata/index.js";
import type { LeaderRecoveryState, PartitionRegistration } from "../../metadata/index.js";
import { leaderRecoveryStateValue, mergePartitionChange } from "../../metadata/index.js";
import type { PartitionChangeRecord } from "../../protocol/index.js";
import { lastKnownLeaderChange, targetEligibleLeaderReplicas } from "./eligible-leader-replicas.js";
import type { ElectionCandidate, ElectionMode, ElectionReport } from "./election-report.js";
import type { ReplicaState } from "./election-report.js";
import { electLeader } from "./leader-election.js";
import type { ElectionChoice } from "./leader-election.js";
import { completedReassignment } from "./reassignment-completion.js";
import { containsAllReplicas, sameReplicas, withoutReplicas } from "./replica-lists.js";

/** A partition, the change wanted, and what the builder needs to know about the cluster. */
export interface PartitionChangeInput {
  readonly topicId: Uuid;
  readonly partitionId: number;
  readonly partition: PartitionRegistration;
  /** What asked for the change, for the election report. */
  readonly trigger: string;
  readonly mode: ElectionMode;
  readonly minIsr: number;
  readonly isElrEnabled: boolean;
  /** Whether the log dirs of replicas are recorded (metadata.version 3.7-IV2 and later). */
  readonly hasDirectories: boolean;
  readonly stateOf: (replica: BrokerId) => ReplicaState;
  /** The log dir for a replica new to the partition. */
  readonly defaultDirectory: (replica: BrokerId) => Uuid;
  readonly targetIsr?: readonly BrokerId[];
  readonly targetReplicas?: readonly BrokerId[];
  readonly targetRemoving?: readonly BrokerId[];
  readonly targetAdding?: readonly BrokerId[];
  readonly targetLeaderRecoveryState?: LeaderRecoveryState;
  /** Replicas that restarted after an unclean shutdown; they leave the ELR (KIP-966). */
  readonly uncleanShutdownReplicas?: readonly BrokerId[];
  /** A replica's new log dir, as its broker reported it (AssignReplicasToDirs, KIP-858). */
  readonly targetDirectory?: { readonly replica: BrokerId; readonly directory: Uuid };
}

/** The record to write (undefined when nothing changes), the election, and the result. */
export interface PartitionChangeResult {
  readonly record: PartitionChangeRecord | undefined;
  readonly election: ElectionReport;
  /** The registration once the record is applied; the input partition when there is none. */
  readonly partition: PartitionRegistration;
}

interface Targets {
  isr: readonly BrokerId[];
  replicas: readonly BrokerId[];
  removing: readonly BrokerId[];
  adding: readonly BrokerId[];
  elr: readonly BrokerId[];
}

function emptyRecord(input: PartitionChangeInput): PartitionChangeRecord {
  return emptyPartitionChange(input.topicId, input.partitionId);
}

/** A change of partition `partitionId` of `topicId` that changes nothing yet. */
export function emptyPartitionChange(topicId: Uuid, partitionId: number): PartitionChangeRecord {
  return {
    partitionId,
    topicId,
    isr: null,
    leader: NO_LEADER_CHANGE,
    replicas: null,
    removingReplicas: null,
    addingReplicas: null,
    leaderRecoveryState: LEADER_RECOVERY_STATE_NO_CHANGE,
    directories: null,
    eligibleLeaderReplicas: null,
    lastKnownElr: null,
  };
}

function initialTargets(input: PartitionChangeInput): Targets {
  const { partition } = input;
  const targets: Targets = {
    isr: input.targetIsr ?? partition.isr,
    replicas: input.targetReplicas ?? partition.replicas,
    removing: input.targetRemoving ?? partition.removingReplicas,
    adding: input.targetAdding ?? partition.addingReplicas,
    elr: partition.eligibleLeaderReplicas,
  };
  const completed = completedReassignment(targets);
  if (completed !== undefined) {
    targets.isr = completed.isr;
    targets.replicas = completed.replicas;
    targets.removing = [];
    targets.adding = [];
  }
  if (input.isElrEnabled) {
    targets.elr = targetEligibleLeaderReplicas({
      partition,
      targetIsr: targets.isr,
      currentElr: targets.elr,
      minIsr: input.minIsr,
      uncleanShutdownReplicas: input.uncleanShutdownReplicas ?? [],
    });
  }
  return targets;
}

/** Runs the election and writes its effect on the record and the targets. */
function applyElection(
  input: PartitionChangeInput,
  targets: Targets,
  record: PartitionChangeRecord,
): ElectionChoice {
  const { partition } = input;
  const choice = electLeader({
    mode: input.mode,
    replicas: targets.replicas,
    isr: targets.isr,
    elr: targets.elr,
    lastKnownElr: partition.lastKnownElr,
    currentLeader: partition.leader,
    isElrEnabled: input.isElrEnabled,
    stateOf: input.stateOf,
  });
  if (choice.leader === partition.leader) return choice;
  if (targets.elr.includes(choice.leader)) {
    // An eligible leader replica that takes over becomes the whole ISR (KIP-966).
    targets.isr = [choice.leader];
    targets.elr = withoutReplicas(targets.elr, [choice.leader]);
  }
  record.leader = choice.leader;
  if (choice.isUnclean) {
    // Nobody else is known to hold what the new leader holds; it must recover first (KIP-704).
    record.isr = [choice.leader];
    if (partition.leaderRecoveryState !== "recovering") {
      record.leaderRecoveryState = leaderRecoveryStateValue("recovering");
    }
  }
  return choice;
}

/** The ELR fields: cleared after an unclean election or with ELR off, else the target ELR. */
function writeEligibleLeaderReplicas(
  input: PartitionChangeInput,
  targets: Targets,
  record: PartitionChangeRecord,
): void {
  const isCleanElection = record.isr === null;
  const elr = isCleanElection && input.isElrEnabled ? targets.elr : [];
  if (!sameReplicas(elr, input.partition.eligibleLeaderReplicas)) {
    record.eligibleLeaderReplicas = elr.slice();
  }
}

function writeIsr(
  input: PartitionChangeInput,
  targets: Targets,
  record: PartitionChangeRecord,
): void {
  // Without ELR the ISR never becomes empty: its last member stays, leaderless, so that it is
  // the one to lead again when it comes back.
  const mayWrite = targets.isr.length > 0 || input.isElrEnabled;
  if (record.isr === null && mayWrite && !sameReplicas(targets.isr, input.partition.isr)) {
    record.isr = targets.isr.slice();
  }
}

function writeAssignment(
  input: PartitionChangeInput,
  targets: Targets,
  record: PartitionChangeRecord,
): void {
  const { partition } = input;
  if (targets.replicas.length > 0) {
    if (input.hasDirectories) {
      const directories = targets.replicas.map((replica) => {
        if (input.targetDirectory?.replica === replica) return input.targetDirectory.directory;
        const index = partition.replicas.indexOf(replica);
        const known = index < 0 ? undefined : partition.directories[index];
        return known ?? input.defaultDirectory(replica);
      });
      if (!sameStrings(directories, partition.directories)) record.directories = directories;
    }
    if (!sameReplicas(targets.replicas, partition.replicas))
      record.replicas = targets.replicas.slice();
  }
  if (!sameReplicas(targets.removing, partition.removingReplicas)) {
    record.removingReplicas = targets.removing.slice();
  }
  if (!sameReplicas(targets.adding, partition.addingReplicas)) {
    record.addingReplicas = targets.adding.slice();
  }
}

function sameStrings(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

function isNoOp(record: PartitionChangeRecord): boolean {
  return (
    record.isr === null &&
    record.leader === NO_LEADER_CHANGE &&
    record.replicas === null &&
    record.removingReplicas === null &&
    record.addingReplicas === null &&
    record.leaderRecoveryState === LEADER_RECOVERY_STATE_NO_CHANGE &&
    record.directories === null &&
    record.eligibleLeaderReplicas === null &&
    record.lastKnownElr === null
  );
}

function candidatesOf(input: PartitionChangeInput, targets: Targets): ElectionCandidate[] {
  const { partition } = input;
  const replicas = [...targets.replicas];
  for (const last of partition.lastKnownElr) if (!replicas.includes(last)) replicas.push(last);
  return replicas.map((replica) => ({
    replica,
    state: input.stateOf(replica),
    isInIsr: targets.isr.includes(replica),
    isInElr: targets.elr.includes(replica),
    isLastKnownLeader: partition.lastKnownElr.length === 1 && partition.lastKnownElr[0] === replica,
  }));
}

/** Builds the change: at most one record with only the changed fields, and its election. */
export function buildPartitionChange(input: PartitionChangeInput): PartitionChangeResult {
  const { partition } = input;
  const record = emptyRecord(input);
  const targets = initialTargets(input);
  const candidates = candidatesOf(input, targets);
  const choice = applyElection(input, targets, record);
  // Removing a replica must fence it: a leader epoch bump tells the others to stop serving it.
  if (
    record.leader === NO_LEADER_CHANGE &&
    !containsAllReplicas(targets.replicas, partition.replicas)
  ) {
    record.leader = partition.leader;
  }
  writeEligibleLeaderReplicas(input, targets, record);
  writeIsr(input, targets, record);
  if (input.isElrEnabled) record.lastKnownElr = lastKnownLeaderChange(partition, record);
  writeAssignment(input, targets, record);
  const recovery = input.targetLeaderRecoveryState ?? partition.leaderRecoveryState;
  if (
    record.leaderRecoveryState === LEADER_RECOVERY_STATE_NO_CHANGE &&
    recovery !== partition.leaderRecoveryState
  ) {
    record.leaderRecoveryState = leaderRecoveryStateValue(recovery);
  }
  const leader =
    record.leader === NO_LEADER_CHANGE ? partition.leader : (record.leader as BrokerId);
  const election: ElectionReport = {
    topicId: input.topicId,
    partitionId: input.partitionId,
    trigger: input.trigger,
    mode: input.mode,
    outcome: choice.outcome,
    previousLeader: partition.leader,
    leader,
    candidates,
  };
  if (isNoOp(record)) return { record: undefined, election, partition };
  const changed = mergePartitionChange(partition, record);
  assert(
    changed.leader === NO_LEADER || changed.replicas.includes(changed.leader),
    "leader is a replica",
  );
  return { record, election, partition: changed };
}
