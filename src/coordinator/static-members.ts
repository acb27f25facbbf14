/**
 * The static members of one classic group (KIP-345): each `group.instance.id` and the member id
 * that holds it now. A restarted static member comes back with its instance id and no member
 * id, and takes over the old member's place; a request that names an instance id with another
 * member id is from a fenced, older incarnation. Pure; its group owns it.
 */
import { ErrorCode } from "../common/index.js";
import type { JoinRequest, JoinResult, MemberIdentity } from "./group-messages.js";

export class StaticMembers {
  readonly #memberIds = new Map<string, string>();

  /** The member id that holds `groupInstanceId`, if any (none for a dynamic member's null). */
  memberIdOf(groupInstanceId: string | null): string | undefined {
    return groupInstanceId === null ? undefined : this.#memberIds.get(groupInstanceId);
  }

  /** Records that `memberId` now holds `groupInstanceId`, replacing any earlier holder. */
  assign(groupInstanceId: string, memberId: string): void {
    this.#memberIds.set(groupInstanceId, memberId);
  }

  release(groupInstanceId: string | null): void {
    if (groupInstanceId !== null) this.#memberIds.delete(groupInstanceId);
  }

  /**
   * Kafka's ClassicGroup.validateMember: an instance id must be held by this very member id
   * (UNKNOWN_MEMBER_ID when no one holds it, FENCED_INSTANCE_ID when another does), and the
   * member id must be in the group.
   */
  validate(member: MemberIdentity, isMember: (memberId: string) => boolean): number {
    if (member.groupInstanceId !== null) {
      const holder = this.#memberIds.get(member.groupInstanceId);
      if (holder === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
      if (holder !== member.memberId) return ErrorCode.FENCED_INSTANCE_ID;
    }
    return isMember(member.memberId) ? ErrorCode.NONE : ErrorCode.UNKNOWN_MEMBER_ID;
  }
}

/**
 * The JoinGroup answer of a static member that took its old place in a Stable group, from the
 * current generation's answer for its new id. From v9 a leader is told to skip the assignment it
 * already made (KIP-814); before, the answer names the previous leader id and no members, so
 * that a restarted leader acts as a follower and only syncs, as in Kafka.
 */
export function replacedJoinResult(
  current: JoinResult,
  replaced: {
    readonly previousLeaderId: string | null;
    readonly request: Pick<JoinRequest, "supportsSkippingAssignment">;
  },
): JoinResult {
  if (replaced.request.supportsSkippingAssignment) {
    return { ...current, skipAssignment: current.leader === current.memberId };
  }
  return { ...current, leader: replaced.previousLeaderId ?? "", members: [] };
}
