/**
 * Which protocol the members of a classic group share and which one they choose (Kafka's
 * ClassicGroup.supportsProtocols and selectProtocol). Pure computations over the members'
 * protocol lists, in each member's order of preference.
 */
import { assert } from "../common/index.js";

/** One protocol a member offers in JoinGroup: an assignor name and its opaque metadata. */
export interface MemberProtocol {
  readonly name: string;
  readonly metadata: Uint8Array;
}

type Offer = { readonly protocols: readonly MemberProtocol[] };

/**
 * Whether a member offering `protocolType` and `protocols` may join `members`, which use
 * `groupProtocolType`: the type must match and one protocol must be common to all. An empty
 * group takes any type and protocol list that is not empty.
 */
export function acceptsProtocols(
  group: { readonly protocolType: string | null; readonly members: readonly Offer[] },
  offer: { readonly protocolType: string; readonly protocols: readonly MemberProtocol[] },
): boolean {
  if (offer.protocolType === "" || offer.protocols.length === 0) return false;
  if (group.members.length === 0) return true;
  if (group.protocolType !== offer.protocolType) return false;
  const offered = new Set(offer.protocols.map((protocol) => protocol.name));
  return candidateProtocols(group.members).some((name) => offered.has(name));
}

/** The protocols every member supports, in the order the first member listed them. */
function candidateProtocols(members: readonly Offer[]): string[] {
  const [first, ...others] = members;
  if (first === undefined) return [];
  return first.protocols
    .map((protocol) => protocol.name)
    .filter((name) => others.every((member) => member.protocols.some((p) => p.name === name)));
}

/**
 * Kafka's selectProtocol: every member votes for its most preferred candidate protocol; the
 * protocol with the most votes wins (ties go to the one the first member listed first).
 */
export function selectProtocol(members: readonly Offer[]): string {
  const candidates = candidateProtocols(members);
  assert(candidates.length > 0, "members share a protocol");
  const votes = new Map(candidates.map((name) => [name, 0]));
  for (const member of members) {
    const vote = member.protocols.find((protocol) => votes.has(protocol.name));
    assert(vote !== undefined, "every member supports a candidate");
    votes.set(vote.name, (votes.get(vote.name) ?? 0) + 1);
  }
  let best = candidates[0] as string;
  for (const name of candidates) if ((votes.get(name) ?? 0) > (votes.get(best) ?? 0)) best = name;
  return best;
}

/** Whether two protocol lists are the same, names and metadata bytes, in the same order. */
export function sameProtocols(
  left: readonly MemberProtocol[],
  right: readonly MemberProtocol[],
): boolean {
  if (left.length !== right.length) return false;
  return left.every((protocol, index) => {
    const other = right[index];
    return other !== undefined && other.name === protocol.name && bytesEqual(protocol, other);
  });
}

function bytesEqual(left: MemberProtocol, right: MemberProtocol): boolean {
  const a = left.metadata;
  const b = right.metadata;
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}
