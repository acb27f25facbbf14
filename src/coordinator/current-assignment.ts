/**
 * One consumer-group member's reconciliation towards its target assignment (KIP-848; Kafka's
 * CurrentAssignmentBuilder): a partition moves to a new owner only after its previous owner
 * has revoked it. A member is in one of three states:
 *
 * - stable: its assignment is its target at the target assignment epoch;
 * - unrevokedPartitions: it must first give up `pendingRevocation`, and stays in its epoch
 *   until a heartbeat no longer lists any of them as owned; it then moves on (epoch + 1);
 * - unreleasedPartitions: it is at the target epoch, but some target partitions are still
 *   owned by other members; they are added as those members release them.
 *
 * Every transition is computed from the previous member, the target, which partitions other
 * members still hold, and what the member said it owns; nothing here has side effects.
 */

/** Partitions by topic id. */
export type Assignment = ReadonlyMap<string, ReadonlySet<number>>;

export type MemberState = "stable" | "unrevokedPartitions" | "unreleasedPartitions";

/** A member's reconciliation progress. */
export interface Reconciliation {
  readonly state: MemberState;
  readonly memberEpoch: number;
  readonly previousMemberEpoch: number;
  readonly assigned: Assignment;
  readonly pendingRevocation: Assignment;
}

/** A topic partition the member says it owns, as ConsumerGroupHeartbeat's TopicPartitions. */
export interface OwnedPartitions {
  readonly topicId: string;
  readonly partitions: readonly number[];
}

export const EMPTY_ASSIGNMENT: Assignment = new Map();

export interface ReconcileInput {
  readonly targetEpoch: number;
  readonly target: Assignment;
  /** Whether a member other than this one still holds the partition (its epoch is not -1). */
  readonly isOwnedByOther: (topicId: string, partition: number) => boolean;
  /** What the member's heartbeat listed as owned; null when the heartbeat did not say. */
  readonly owned: readonly OwnedPartitions[] | null;
}

/** The member's next reconciliation step; the same object when nothing changes. */
export function reconcile(member: Reconciliation, input: ReconcileInput): Reconciliation {
  switch (member.state) {
    case "stable":
      if (member.memberEpoch === input.targetEpoch) return member;
      return nextAssignment(member, member.memberEpoch, input);
    case "unrevokedPartitions":
      // A heartbeat that does not list what it owns may still hold the revoked partitions.
      if (ownsAny(input.owned, member.pendingRevocation)) return member;
      return nextAssignment(member, member.memberEpoch + 1, input);
    case "unreleasedPartitions":
      return nextAssignment(member, member.memberEpoch, input);
  }
}

function nextAssignment(
  member: Reconciliation,
  memberEpoch: number,
  input: ReconcileInput,
): Reconciliation {
  const assigned = new Map<string, Set<number>>();
  const pendingRevocation = new Map<string, Set<number>>();
  const pendingAssignment = new Map<string, Set<number>>();
  let hasUnreleased = false;
  const topicIds = new Set([...input.target.keys(), ...member.assigned.keys()]);
  for (const topicId of [...topicIds].sort()) {
    const target = input.target.get(topicId) ?? new Set<number>();
    const current = member.assigned.get(topicId) ?? new Set<number>();
    const kept = [...current].filter((partition) => target.has(partition));
    const revoked = [...current].filter((partition) => !target.has(partition));
    const wanted = [...target].filter((partition) => !current.has(partition));
    const free = wanted.filter((partition) => !input.isOwnedByOther(topicId, partition));
    if (free.length < wanted.length) hasUnreleased = true;
    putNonEmpty(assigned, topicId, kept);
    putNonEmpty(pendingRevocation, topicId, revoked);
    putNonEmpty(pendingAssignment, topicId, free);
  }
  if (pendingRevocation.size > 0 && ownsAny(input.owned, pendingRevocation)) {
    return withEpoch(member, memberEpoch, {
      state: "unrevokedPartitions",
      assigned,
      pendingRevocation,
    });
  }
  for (const [topicId, partitions] of pendingAssignment) {
    const into = assigned.get(topicId) ?? new Set<number>();
    for (const partition of partitions) into.add(partition);
    assigned.set(topicId, into);
  }
  return withEpoch(member, input.targetEpoch, {
    state: hasUnreleased ? "unreleasedPartitions" : "stable",
    assigned,
    pendingRevocation: EMPTY_ASSIGNMENT,
  });
}

function withEpoch(
  member: Reconciliation,
  memberEpoch: number,
  next: Pick<Reconciliation, "state" | "assigned" | "pendingRevocation">,
): Reconciliation {
  const previousMemberEpoch =
    memberEpoch === member.memberEpoch ? member.previousMemberEpoch : member.memberEpoch;
  return { ...next, memberEpoch, previousMemberEpoch };
}

function putNonEmpty(into: Map<string, Set<number>>, topicId: string, partitions: number[]): void {
  if (partitions.length > 0) into.set(topicId, new Set(partitions));
}

/** Whether `owned` lists any partition of `assignment`; not knowing counts as owning. */
export function ownsAny(owned: readonly OwnedPartitions[] | null, assignment: Assignment): boolean {
  if (owned === null) return true;
  return owned.some((topic) =>
    topic.partitions.some((partition) => assignment.get(topic.topicId)?.has(partition) === true),
  );
}

/** Whether every partition in `owned` is in `assignment` (Kafka's isSubset). */
export function isSubset(
  owned: readonly OwnedPartitions[] | null,
  assignment: Assignment,
): boolean {
  if (owned === null) return false;
  return owned.every((topic) => {
    const partitions = assignment.get(topic.topicId);
    return partitions !== undefined && topic.partitions.every((p) => partitions.has(p));
  });
}

/** Whether two assignments hold the same partitions. */
export function sameAssignment(left: Assignment, right: Assignment): boolean {
  if (left.size !== right.size) return false;
  for (const [topicId, partitions] of left) {
    const other = right.get(topicId);
    if (other === undefined || other.size !== partitions.size) return false;
    for (const partition of partitions) if (!other.has(partition)) return false;
  }
  return true;
}
