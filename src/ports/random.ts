/**
 * The source of randomness. The simulator supplies a seeded generator so that a run replays
 * exactly; the Node adapter draws from the operating system.
 */
export interface Random {
  /** A uniformly distributed integer in [0, 2^32). */
  nextUint32(): number;
  /** A uniformly distributed number in [0, 1). */
  nextFloat(): number;
  /** A uniformly distributed integer in [0, boundExclusive); boundExclusive is at most 2^32. */
  nextInt(boundExclusive: number): number;
  /** Fills `target` with random bytes and returns it. */
  fill(target: Uint8Array): Uint8Array;
}
