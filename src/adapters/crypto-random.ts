import { randomFillSync } from "node:crypto";
import { assert } from "../common/index.js";
import type { Random } from "../ports/index.js";

/** How many random bytes are drawn from the operating system at once. */
const poolBytes = 4096;

/**
 * Randomness from the operating system's cryptographic generator. Bytes are drawn in pools of
 * 4 KiB so that a random election timeout does not cost a system call.
 */
export class CryptoRandom implements Random {
  private readonly pool = new Uint8Array(poolBytes);
  private readonly poolView = new DataView(this.pool.buffer);
  private poolPosition = poolBytes;

  nextUint32(): number {
    if (this.poolPosition + 4 > poolBytes) {
      randomFillSync(this.pool);
      this.poolPosition = 0;
    }
    const value = this.poolView.getUint32(this.poolPosition);
    this.poolPosition += 4;
    return value;
  }

  nextFloat(): number {
    // 53 random bits make every double in [0, 1) with a step of 2^-53 equally likely.
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * 67108864 + low) / 9007199254740992;
  }

  nextInt(boundExclusive: number): number {
    assert(Number.isInteger(boundExclusive), "nextInt bound must be an integer");
    assert(boundExclusive > 0 && boundExclusive <= 2 ** 32, "nextInt bound must be in (0, 2^32]");
    // Rejection sampling removes the bias a plain modulo would have for bounds that do not
    // divide 2^32.
    const limit = 2 ** 32 - (2 ** 32 % boundExclusive);
    for (;;) {
      const value = this.nextUint32();
      if (value < limit) return value % boundExclusive;
    }
  }

  fill(target: Uint8Array): Uint8Array {
    randomFillSync(target);
    return target;
  }
}
