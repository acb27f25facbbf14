/**
 * Conversions of Kafka's Uuid (topic ids, directory ids) between Sluice's in-memory form, 32
 * lowercase hex digits, and the text Kafka prints: URL-safe base64 of the 16 bytes, no padding.
 */
import type { Uuid } from "./ids.js";

const UUID_BYTES = 16;
const HEX_PATTERN = /^[0-9a-f]{32}$/;
// 22 characters of the URL-safe alphabet carry 132 bits, so the last character's low 4 bits
// must be zero ("A", "Q", "g" or "w") for the text to be the one canonical form of 16 bytes.
const BASE64_PATTERN = /^[A-Za-z0-9_-]{21}[AQgw]$/;

/** The all-zero Uuid Kafka reserves as "no id". */
export const ZERO_UUID = "0".repeat(32) as Uuid;
/** The Uuid 0...01 Kafka reserves (the metadata topic's id); never handed out. */
export const ONE_UUID = `${"0".repeat(31)}1` as Uuid;

/** True when `text` is a Uuid in Sluice's form: exactly 32 lowercase hex digits. */
export function isUuid(text: string): text is Uuid {
  return HEX_PATTERN.test(text);
}

/** The Uuid made of these 16 bytes, taken as they are; throws RangeError for any other length. */
export function uuidFromBytes(bytes: Uint8Array): Uuid {
  if (bytes.length !== UUID_BYTES) throw new RangeError(`a Uuid has 16 bytes, got ${bytes.length}`);
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex as Uuid;
}

/** The 16 bytes of `uuid`; throws RangeError when it is not 32 lowercase hex digits. */
export function uuidToBytes(uuid: Uuid): Uint8Array {
  if (!isUuid(uuid)) throw new RangeError(`not a Uuid: ${JSON.stringify(uuid)}`);
  const bytes = new Uint8Array(UUID_BYTES);
  for (let index = 0; index < UUID_BYTES; index++) {
    bytes[index] = Number.parseInt(uuid.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

/**
 * A random (version 4) Uuid from 16 random bytes, as Kafka's Uuid.randomUuid makes one, or
 * undefined when Kafka would draw again: the result is reserved (zero or one), or its base64 form
 * starts with "-", which command-line tools would take for an option.
 */
export function uuidFromRandomBytes(randomBytes: Uint8Array): Uuid | undefined {
  if (randomBytes.length !== UUID_BYTES) {
    throw new RangeError(`a Uuid has 16 bytes, got ${randomBytes.length}`);
  }
  const bytes = Uint8Array.from(randomBytes);
  // RFC 4122 layout of a random Uuid: version 4 in the high nibble of byte 6, variant 10xx in
  // byte 8.
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const uuid = uuidFromBytes(bytes);
  if (uuid === ZERO_UUID || uuid === ONE_UUID || uuidToBase64(uuid).startsWith("-")) {
    return undefined;
  }
  return uuid;
}

/** Kafka's printed form of `uuid`: 22 characters of URL-safe base64 without padding. */
export function uuidToBase64(uuid: Uuid): string {
  return Buffer.from(uuidToBytes(uuid)).toString("base64url");
}

/**
 * Parses Kafka's printed form strictly: exactly 22 characters of the URL-safe alphabet whose
 * unused low bits are zero, so that every Uuid has one text. Undefined for anything else.
 */
export function uuidFromBase64(text: string): Uuid | undefined {
  // Buffer's decoder skips characters outside the alphabet, so the pattern does the checking.
  if (!BASE64_PATTERN.test(text)) return undefined;
  return uuidFromBytes(Buffer.from(text, "base64url"));
}
