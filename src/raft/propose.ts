/**
 * Proposals at the leader: records get their offsets at once and wait in the accumulator;
 * a proposal is refused when this node does not lead, when it must start at an offset the log
 * is not at (Kafka's atomic append at a required base offset), when too much waits to become
 * durable (back-pressure), or when it cannot fit in one batch.
 */
import { assert } from "../common/index.js";
import type { NodeCore } from "./node-core.js";
import { appendAsLeader } from "./transitions.js";

/** The answer to a proposal; a refused proposal wrote nothing. */
export type ProposeResult =
  /** The records will have offsets baseOffset..lastOffset, in `epoch`, if it commits. */
  | {
      readonly kind: "accepted";
      readonly baseOffset: number;
      readonly lastOffset: number;
      readonly epoch: number;
    }
  | { readonly kind: "refused"; readonly reason: "notLeader" | "throttled" | "tooLarge" }
  /** The proposal required a base offset other than `nextOffset`, where it would have started. */
  | { readonly kind: "refused"; readonly reason: "offsetMismatch"; readonly nextOffset: number };

export interface ProposeOptions {
  /**
   * Kafka's requiredBaseOffset: accept only if the first record gets exactly this offset. The
   * controller needs it for a broker registration, whose broker epoch is its record's offset.
   */
  readonly requiredBaseOffset?: number;
}

/** Accepts records for the log at the leader, or says why not. */
export function proposeRecords(
  core: NodeCore,
  records: readonly Uint8Array[],
  options: ProposeOptions = {},
): ProposeResult {
  const state = core.state;
  if (state.kind !== "leader") return { kind: "refused", reason: "notLeader" };
  const accumulator = state.leader.accumulator;
  const nextOffset = accumulator.nextOffset;
  const required = options.requiredBaseOffset;
  if (required !== undefined && required !== nextOffset) {
    return { kind: "refused", reason: "offsetMismatch", nextOffset };
  }
  if (records.length === 0 || !accumulator.fitsInBatch(records)) {
    return { kind: "refused", reason: "tooLarge" };
  }
  const bytes = records.reduce((sum, record) => sum + record.length, 0);
  if (accumulator.outstandingBytes + bytes > core.config.timings.pendingAppendBytesMax) {
    return { kind: "refused", reason: "throttled" };
  }
  // The accumulator fixes offsets when it accepts records: lingering with other proposals in
  // one batch, or closing a full batch first, never moves them, so a required offset holds.
  const added = accumulator.add(core.nowMs, records);
  appendAsLeader(core, added.full);
  const { baseOffset, lastOffset } = added;
  assert(required === undefined || baseOffset === required, "a required base offset holds");
  return { kind: "accepted", baseOffset, lastOffset, epoch: state.epoch };
}
