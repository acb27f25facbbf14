/**
 * The choice of a partition's leader, following Kafka's PartitionChangeBuilder: a valid leader is
 * an eligible broker in the target ISR or, when that ISR is empty, in the eligible leader
 * replicas (KIP-966). The current leader stays while it is valid (except that a preferred
 * election first tries the first replica); otherwise the first valid replica in replica order
 * leads; then the last known leader when ISR and ELR are both empty (KIP-966 balanced recovery);
 * then, for an unclean election only, the first eligible replica of all.
 */
import type { BrokerId } from "../../common/index.js";
import { NO_LEADER } from "../../metadata/index.js";
import type { ElectionMode, ElectionOutcome, ReplicaState } from "./election-report.js";

/** What an election looks at: the partition's target sets and each replica's eligibility. */
export interface ElectionInput {
  readonly mode: ElectionMode;
  readonly replicas: readonly BrokerId[];
  readonly isr: readonly BrokerId[];
  readonly elr: readonly BrokerId[];
  /** The partition's lastKnownElr as registered; one member means "the last known leader". */
  readonly lastKnownElr: readonly BrokerId[];
  readonly currentLeader: BrokerId;
  readonly isElrEnabled: boolean;
  readonly stateOf: (replica: BrokerId) => ReplicaState;
}

/** The chosen leader, where it came from, and whether choosing it may lose committed data. */
export interface ElectionChoice {
  readonly leader: BrokerId;
  readonly outcome: ElectionOutcome;
  /** True for a last-known-leader or unclean pick: the ISR restarts as the leader alone. */
  readonly isUnclean: boolean;
}

const NOBODY: ElectionChoice = { leader: NO_LEADER as BrokerId, outcome: "none", isUnclean: false };

function isValidLeader(input: ElectionInput, replica: BrokerId): boolean {
  const isCandidate =
    input.isr.includes(replica) || (input.isr.length === 0 && input.elr.includes(replica));
  return isCandidate && input.stateOf(replica) === "active";
}

function cleanOutcome(input: ElectionInput, replica: BrokerId): ElectionOutcome {
  if (replica === input.currentLeader) return "kept";
  if (!input.isr.includes(replica)) return "elr";
  return input.mode === "preferred" && replica === input.replicas[0] ? "preferred" : "isr";
}

function clean(input: ElectionInput, replica: BrokerId): ElectionChoice {
  return { leader: replica, outcome: cleanOutcome(input, replica), isUnclean: false };
}

/**
 * KIP-966 balanced recovery: with ISR and ELR empty, the single last known leader may lead again
 * once it is back. Kafka 4.0 forgot to require it be eligible (fixed by KAFKA-19522 in 4.1); we
 * require it, since a fenced broker must never be elected.
 */
function lastKnownLeader(input: ElectionInput): ElectionChoice | undefined {
  if (!input.isElrEnabled || input.isr.length > 0 || input.elr.length > 0) return undefined;
  const [last] = input.lastKnownElr;
  if (input.lastKnownElr.length !== 1 || last === undefined) return undefined;
  if (input.stateOf(last) !== "active") return undefined;
  return { leader: last, outcome: "lastKnownLeader", isUnclean: true };
}

/** Chooses the leader for `input`; NO_LEADER with outcome "none" when nobody may lead. */
export function electLeader(input: ElectionInput): ElectionChoice {
  const [preferred] = input.replicas;
  if (input.mode === "preferred" && preferred !== undefined && isValidLeader(input, preferred)) {
    return clean(input, preferred);
  }
  if (isValidLeader(input, input.currentLeader)) return clean(input, input.currentLeader);
  const online = input.replicas.find((replica) => isValidLeader(input, replica));
  if (online !== undefined) return clean(input, online);
  const recovered = lastKnownLeader(input);
  if (recovered !== undefined) return recovered;
  if (input.mode === "unclean") {
    const unclean = input.replicas.find((replica) => input.stateOf(replica) === "active");
    if (unclean !== undefined) return { leader: unclean, outcome: "unclean", isUnclean: true };
  }
  return NOBODY;
}
