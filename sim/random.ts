import { assert } from "../src/common/index.js";
import type { Random } from "../src/ports/index.js";
import { Fnv1a64 } from "./hash.js";

/** One step of splitmix32, used to spread a seed over the generator's state. */
function splitmix32(state: number): { state: number; value: number } {
  const next = (state + 0x9e3779b9) >>> 0;
  let value = next;
  value = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  value = Math.imul(value ^ (value >>> 13), 0xc2b2ae35);
  return { state: next, value: (value ^ (value >>> 16)) >>> 0 };
}

const rotateLeft = (value: number, bits: number): number =>
  ((value << bits) | (value >>> (32 - bits))) >>> 0;

/**
 * A seeded pseudo-random generator (xoshiro128**): the same seed and label always give the same
 * numbers. `fork(label)` derives an independent stream from the seed and the label only, so
 * adding draws to one stream never shifts another.
 */
export class SeededRandom implements Random {
  private readonly state: Uint32Array;

  /** `seed` is any safe integer; `label` names the stream (the root stream has none). */
  constructor(
    readonly seed: number,
    readonly label = "",
  ) {
    assert(Number.isSafeInteger(seed), "a seed is a safe integer");
    const key = new Fnv1a64().updateText(`${seed}/${label}`);
    let mix = (key.low32() ^ (seed >>> 0)) >>> 0;
    this.state = new Uint32Array(4);
    for (let index = 0; index < 4; index++) {
      const step = splitmix32((mix ^ (index === 2 ? key.high32() : 0)) >>> 0);
      mix = step.state;
      this.state[index] = step.value;
    }
    // An all-zero state would make xoshiro return zeros forever.
    if (this.state.every((word) => word === 0)) this.state[0] = 1;
  }

  /** An independent generator for `label`, determined by this generator's seed and label. */
  fork(label: string): SeededRandom {
    return new SeededRandom(this.seed, this.label === "" ? label : `${this.label}/${label}`);
  }

  nextUint32(): number {
    const s = this.state;
    const s0 = s[0] ?? 0;
    const s1 = s[1] ?? 0;
    const result = Math.imul(rotateLeft(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const shifted = (s1 << 9) >>> 0;
    s[2] = (s[2] ?? 0) ^ s0;
    s[3] = (s[3] ?? 0) ^ s1;
    s[1] = s1 ^ (s[2] ?? 0);
    s[0] = s0 ^ (s[3] ?? 0);
    s[2] = (s[2] ?? 0) ^ shifted;
    s[3] = rotateLeft(s[3] ?? 0, 11);
    return result;
  }

  nextFloat(): number {
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * 67108864 + low) / 9007199254740992;
  }

  nextInt(boundExclusive: number): number {
    assert(Number.isInteger(boundExclusive), "nextInt bound must be an integer");
    assert(boundExclusive > 0 && boundExclusive <= 2 ** 32, "nextInt bound must be in (0, 2^32]");
    // Rejection sampling keeps small bounds unbiased.
    const limit = 2 ** 32 - (2 ** 32 % boundExclusive);
    for (;;) {
      const value = this.nextUint32();
      if (value < limit) return value % boundExclusive;
    }
  }

  fill(target: Uint8Array): Uint8Array {
    for (let index = 0; index < target.length; index += 4) {
      let word = this.nextUint32();
      for (let byte = index; byte < Math.min(index + 4, target.length); byte++) {
        target[byte] = word & 0xff;
        word >>>= 8;
      }
    }
    return target;
  }

  /** An integer in [minimum, maximum], both included. */
  between(minimum: number, maximum: number): number {
    assert(Number.isInteger(minimum) && Number.isInteger(maximum), "between takes integers");
    assert(minimum <= maximum, "between needs minimum <= maximum");
    return minimum + this.nextInt(maximum - minimum + 1);
  }

  /** True with `probability` (0 never draws, so a fault-free setup draws nothing). */
  chance(probability: number): boolean {
    if (probability <= 0) return false;
    if (probability >= 1) return true;
    return this.nextFloat() < probability;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    assert(items.length > 0, "pick needs a non-empty array");
    return items[this.nextInt(items.length)] as T;
  }
}
