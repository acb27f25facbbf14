/**
 * Cryptographic primitives SCRAM (RFC 5802) needs: a hash, its HMAC and PBKDF2 (Hi). The Node
 * adapter uses the platform's implementations.
 */

/** The hashes of SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 7677). */
export type HashAlgorithm = "sha256" | "sha512";

export interface Crypto {
  hash(algorithm: HashAlgorithm, data: Uint8Array): Uint8Array;
  hmac(algorithm: HashAlgorithm, key: Uint8Array, data: Uint8Array): Uint8Array;
  /** PBKDF2 with HMAC of `algorithm`, giving a key as long as the hash. */
  pbkdf2(
    algorithm: HashAlgorithm,
    password: Uint8Array,
    salt: Uint8Array,
    iterations: number,
  ): Uint8Array;
  /** Compares in time that does not depend on where the inputs differ. */
  equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean;
}
