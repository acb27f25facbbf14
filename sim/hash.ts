/**
 * 64-bit FNV-1a over UTF-8 text, kept in four 16-bit limbs so that every step is exact in
 * JavaScript numbers. Used for trace hashes and for deriving random streams from labels.
 */
export class Fnv1a64 {
  // The 64-bit FNV offset basis 0xcbf29ce484222325, low limb first.
  private limbs = [0x2325, 0x8422, 0x9ce4, 0xcbf2];
  private readonly encoder = new TextEncoder();

  /** Mixes the UTF-8 bytes of `text` into the hash. */
  updateText(text: string): this {
    return this.updateBytes(this.encoder.encode(text));
  }

  /** Mixes `bytes` into the hash. */
  updateBytes(bytes: Uint8Array): this {
    let [h0, h1, h2, h3] = this.limbs as [number, number, number, number];
    for (const byte of bytes) {
      h0 ^= byte;
      // Multiplying by the FNV prime 2^40 + 0x1b3 is h * 0x1b3 plus h shifted up 40 bits
      // (two limbs and 8 bits), truncated to 64 bits.
      const t0 = h0 * 0x1b3;
      const t1 = h1 * 0x1b3 + Math.floor(t0 / 0x10000);
      const t2 = h2 * 0x1b3 + (h0 << 8) + Math.floor(t1 / 0x10000);
      const t3 = h3 * 0x1b3 + (h1 << 8) + Math.floor(t2 / 0x10000);
      h0 = t0 & 0xffff;
      h1 = t1 & 0xffff;
      h2 = t2 & 0xffff;
      h3 = t3 & 0xffff;
    }
    this.limbs = [h0, h1, h2, h3];
    return this;
  }

  /** The hash as 16 lowercase hex digits. */
  hex(): string {
    return this.limbs
      .map((limb) => limb.toString(16).padStart(4, "0"))
      .reverse()
      .join("");
  }

  /** The low 32 bits of the hash. */
  low32(): number {
    return ((this.limbs[1] ?? 0) * 0x10000 + (this.limbs[0] ?? 0)) >>> 0;
  }

  /** The high 32 bits of the hash. */
  high32(): number {
    return ((this.limbs[3] ?? 0) * 0x10000 + (this.limbs[2] ?? 0)) >>> 0;
  }
}

/** The FNV-1a 64 hash of `text` as 16 hex digits. */
export function fnv1a64Hex(text: string): string {
  return new Fnv1a64().updateText(text).hex();
}
