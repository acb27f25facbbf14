/**
 * The metadata client of the simulation: it proposes records at random times to whichever node
 * it believes leads, and follows a refusal's hint (the leader the node knows) or guesses another
 * voter. It remembers accepted proposals so the liveness phase can tell when a fresh one
 * committed.
 */
import type { ProposeResult } from "../../src/raft/index.js";
import type { SeededRandom } from "../random.js";
import type { RaftChecker } from "./checker.js";
import type { RaftProcess } from "./raft-process.js";

interface AcceptedProposal {
  readonly lastOffset: number;
  readonly epoch: number;
  readonly proposedAtMs: number;
}

/** The most accepted proposals remembered; older ones matter no more. */
const acceptedRemembered = 64;

/** Proposes records and tracks which of its proposals committed. */
export class ProposalClient {
  private believedLeader: number;
  private sequence = 0;
  private accepted: AcceptedProposal[] = [];
  /** Counts of what the client saw, for the run's summary. */
  readonly counts = { accepted: 0, refused: 0, unanswered: 0 };

  constructor(
    private readonly voters: readonly RaftProcess[],
    private readonly random: SeededRandom,
    private readonly checker: RaftChecker,
  ) {
    this.believedLeader = random.pick(voters).id;
  }

  /** Proposes one to three records to the believed leader now. */
  proposeOnce(nowMs: number): void {
    const target = this.voters.find((process) => process.id === this.believedLeader);
    if (target === undefined || !target.isResponsive || target.node === null) {
      // No answer: a real client times out and tries another node.
      this.counts.unanswered += 1;
      this.believedLeader = this.random.pick(this.voters).id;
      return;
    }
    const records: Uint8Array[] = [];
    for (let count = this.random.between(1, 3); count > 0; count--) {
      records.push(new TextEncoder().encode(`proposal-${this.sequence++}`));
    }
    // The proposal waits its turn in the process, as a request in its queue would.
    target.enqueue(() => {
      let result: ProposeResult = { kind: "refused", reason: "notLeader" };
      target.input((node, now) => {
        const proposed = node.propose(now, records);
        result = proposed.result;
        return proposed.output;
      });
      this.noteResult(target, result, nowMs);
    });
  }

  private noteResult(target: RaftProcess, result: ProposeResult, nowMs: number): void {
    if (result.kind === "accepted") {
      this.counts.accepted += 1;
      this.accepted.push({
        lastOffset: result.lastOffset,
        epoch: result.epoch,
        proposedAtMs: nowMs,
      });
      if (this.accepted.length > acceptedRemembered) this.accepted.shift();
      return;
    }
    this.counts.refused += 1;
    const hint = target.node?.leaderId ?? null;
    this.believedLeader =
      hint !== null && hint !== target.id ? hint : this.random.pick(this.voters).id;
  }

  /** True when a proposal accepted at or after `sinceMs` has committed. */
  hasCommittedSince(sinceMs: number): boolean {
    return this.accepted.some(
      (proposal) =>
        proposal.proposedAtMs >= sinceMs &&
        this.checker.isCommitted(proposal.lastOffset, proposal.epoch),
    );
  }
}
