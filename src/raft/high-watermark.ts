/**
 * The leader's high-watermark rule (KIP-595): an offset is committed once a majority of voters
 * hold the log up to it, and a new leader exposes nothing until an offset of its own epoch is
 * committed, so a later leader can never overwrite what it exposed.
 */

export interface HighWatermarkInput {
  /**
   * The end offset each voter is known to hold durably (the leader's own once persisted), or
   * undefined for a voter not heard from in this epoch. One entry per voter.
   */
  readonly voterEndOffsets: readonly (number | undefined)[];
  /** The leader's log end offset when it took office: the offset of its LeaderChange record. */
  readonly epochStartOffset: number;
  /** The current high watermark, undefined before the leader has committed anything. */
  readonly highWatermark: number | undefined;
}

/**
 * The high watermark the leader moves to, or undefined when it stays: the largest offset a
 * majority of voters hold, when that is past the epoch's start offset (so a record of this
 * epoch is included) and past the current high watermark (it never moves backwards).
 */
export function computeHighWatermark(input: HighWatermarkInput): number | undefined {
  const known = input.voterEndOffsets
    .filter((end): end is number => end !== undefined)
    .sort((left, right) => right - left);
  const majorityIndex = Math.floor(input.voterEndOffsets.length / 2);
  const candidate = known[majorityIndex];
  if (candidate === undefined || candidate <= input.epochStartOffset) return undefined;
  if (input.highWatermark !== undefined && candidate <= input.highWatermark) return undefined;
  return candidate;
}
