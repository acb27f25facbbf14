/**
 * SCRAM (RFC 5802) with SHA-256 and SHA-512 (RFC 7677), as Kafka's ScramSaslServer serves it:
 * the salted credential (salt, stored key, server key, iterations) as UserScramCredentialRecord
 * keeps it, the server's side of the exchange, and the formulas a client uses, which format
 * and the inter-node client share. No channel binding: the client must send the gs2 header
 * "n,," (or "y,,"), as Kafka requires.
 */
import { scramKeysOf } from "../../controller/index.js";
export {
  decodeSaslName,
  encodeSaslName,
  fromBase64,
  isValidNonce,
  scramAttributes,
  toBase64,
  xor,
} from "../../protocol/index.js";
import type { Crypto, HashAlgorithm } from "../../ports/index.js";

export const SCRAM_MECHANISMS = ["SCRAM-SHA-256", "SCRAM-SHA-512"] as const;
export type ScramMechanism = (typeof SCRAM_MECHANISMS)[number];

/** Kafka's ScramMechanism type ids, as UserScramCredentialRecord.mechanism stores them. */
export const SCRAM_MECHANISM_TYPES: Record<ScramMechanism, number> = {
  "SCRAM-SHA-256": 1,
  "SCRAM-SHA-512": 2,
};

export { SCRAM_ITERATIONS_MAX, SCRAM_ITERATIONS_MIN } from "../../controller/index.js";

export function hashOf(mechanism: ScramMechanism): HashAlgorithm {
  return mechanism === "SCRAM-SHA-256" ? "sha256" : "sha512";
}

export function scramMechanismOfType(type: number): ScramMechanism | undefined {
  return SCRAM_MECHANISMS.find((mechanism) => SCRAM_MECHANISM_TYPES[mechanism] === type);
}

/** What the server keeps of a password. */
export interface ScramCredential {
  readonly salt: Uint8Array;
  readonly storedKey: Uint8Array;
  readonly serverKey: Uint8Array;
  readonly iterations: number;
}

const encoder = new TextEncoder();
const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** The credential of `password` with `salt` (RFC 5802 section 3). */
export function scramCredentialOf(
  crypto: Crypto,
  mechanism: ScramMechanism,
  password: string,
  salt: Uint8Array,
  iterations: number,
): ScramCredential {
  const hash = hashOf(mechanism);
  const saltedPassword = crypto.pbkdf2(hash, utf8(password), salt, iterations);
  return { salt, ...scramKeysOf(crypto, hash, saltedPassword), iterations };
}
