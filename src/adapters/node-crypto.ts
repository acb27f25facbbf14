import { createHash, createHmac, pbkdf2Sync, timingSafeEqual } from "node:crypto";
import type { Crypto, HashAlgorithm } from "../ports/index.js";

const HASH_BYTES: Record<HashAlgorithm, number> = { sha256: 32, sha512: 64 };

/** The Crypto port on `node:crypto`. */
export class NodeCrypto implements Crypto {
  hash(algorithm: HashAlgorithm, data: Uint8Array): Uint8Array {
    return createHash(algorithm).update(data).digest();
  }

  hmac(algorithm: HashAlgorithm, key: Uint8Array, data: Uint8Array): Uint8Array {
    return createHmac(algorithm, key).update(data).digest();
  }

  pbkdf2(
    algorithm: HashAlgorithm,
    password: Uint8Array,
    salt: Uint8Array,
    iterations: number,
  ): Uint8Array {
    return pbkdf2Sync(password, salt, iterations, HASH_BYTES[algorithm], algorithm);
  }

  equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
