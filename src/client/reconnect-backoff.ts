/**
 * The wait before reconnecting to a node, as Kafka's ExponentialBackoff computes it for
 * `reconnect.backoff.ms`: the base doubles with each consecutive failure up to the maximum,
 * then a random factor in [0.8, 1.2] spreads clients that lost the same node apart.
 */
import { assert } from "../common/index.js";
import type { Random } from "../ports/index.js";

/** The share by which a backoff may be shortened or lengthened at random (Kafka's 0.2). */
export const RECONNECT_JITTER = 0.2;

export interface BackoffBounds {
  readonly reconnectBackoffMs: number;
  readonly reconnectBackoffMaxMs: number;
}

/**
 * The wait in milliseconds after `failures` consecutive failures (1 for the first). `random`
 * supplies the jitter; the result lies within 20% of min(base * 2^(failures - 1), max).
 */
export function reconnectBackoffMs(
  bounds: BackoffBounds,
  failures: number,
  random: Random,
): number {
  assert(Number.isInteger(failures) && failures >= 1, "a backoff follows at least one failure");
  assert(bounds.reconnectBackoffMs >= 0, "reconnect.backoff.ms is not negative");
  const base = bounds.reconnectBackoffMs;
  const maximum = Math.max(base, bounds.reconnectBackoffMaxMs);
  if (base === 0) return 0;
  // Stop doubling once the maximum is reached, so large failure counts cannot overflow.
  const doublings = Math.min(failures - 1, Math.ceil(Math.log2(maximum / base)));
  const term = Math.min(base * 2 ** doublings, maximum);
  const factor = 1 - RECONNECT_JITTER + random.nextFloat() * 2 * RECONNECT_JITTER;
  return Math.round(term * factor);
}
