/**
 * The randomised timers of elections, as Kafka computes them: a uniformly random election
 * timeout, a binary exponential backoff after a lost election, and the strict exponential
 * backoff a voter takes after EndQuorumEpoch according to its place among the preferred
 * successors.
 */
import type { Random } from "../ports/index.js";

/** Kafka's RETRY_BACKOFF_BASE_MS: the unit of the backoff after a lost election. */
export const ELECTION_BACKOFF_BASE_MS = 100;

/** An election timeout drawn uniformly from [timeout, 2 × timeout). */
export function randomElectionTimeoutMs(random: Random, electionTimeoutMs: number): number {
  return electionTimeoutMs + random.nextInt(electionTimeoutMs);
}

/**
 * The backoff before the next election after `retries` lost ones: 100 ms times a random
 * integer below 2^retries (the exponent capped at 20), never above the configured maximum.
 */
export function binaryExponentialBackoffMs(
  random: Random,
  options: { readonly retries: number; readonly electionBackoffMaxMs: number },
): number {
  const exponent = Math.min(20, Math.max(1, options.retries));
  const draw = random.nextInt(2 ** exponent);
  return Math.min(ELECTION_BACKOFF_BASE_MS * draw, options.electionBackoffMaxMs);
}

/**
 * The election delay of a voter told by EndQuorumEpoch that its leader resigned: 0 for the
 * first preferred successor, then doubling from maximum / 2^(successors - 1), and the maximum
 * for a voter that is not in the list.
 */
export function strictExponentialBackoffMs(options: {
  readonly position: number;
  readonly successorCount: number;
  readonly electionBackoffMaxMs: number;
}): number {
  const { position, successorCount, electionBackoffMaxMs } = options;
  if (position === 0) return 0;
  if (position < 0 || position >= successorCount) return electionBackoffMaxMs;
  const base = Math.floor(electionBackoffMaxMs / 2 ** (successorCount - 1));
  return Math.min(electionBackoffMaxMs, base * 2 ** (position - 1));
}
