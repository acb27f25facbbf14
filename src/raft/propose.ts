/**
 * Proposals at the leader: records get their offsets at once and wait in the accumulator;
 * a proposal is refused when this node does not lead, when too much waits to become durable
 * (back-pressure), or when it cannot fit in one batch.
 */
import type { NodeCore } from "./node-core.js";
import { appendAsLeader } from "./transitions.js";

/** The answer to a proposal. */
export type ProposeResult =
  /** The records will have offsets baseOffset..lastOffset, in `epoch`, if it commits. */
  | {
      readonly kind: "accepted";
      readonly baseOffset: number;
      readonly lastOffset: number;
      readonly epoch: number;
    }
  | { readonly kind: "refused"; readonly reason: "notLeader" | "throttled" | "tooLarge" };

/** Accepts records for the log at the leader, or says why not. */
export function proposeRecords(core: NodeCore, records: readonly Uint8Array[]): ProposeResult {
  const state = core.state;
  if (state.kind !== "leader") return { kind: "refused", reason: "notLeader" };
  const accumulator = state.leader.accumulator;
  if (records.length === 0 || !accumulator.fitsInBatch(records)) {
    return { kind: "refused", reason: "tooLarge" };
  }
  const bytes = records.reduce((sum, record) => sum + record.length, 0);
  if (accumulator.outstandingBytes + bytes > core.config.timings.pendingAppendBytesMax) {
    return { kind: "refused", reason: "throttled" };
  }
  const added = accumulator.add(core.nowMs, records);
  appendAsLeader(core, added.full);
  const { baseOffset, lastOffset } = added;
  return { kind: "accepted", baseOffset, lastOffset, epoch: state.epoch };
}
