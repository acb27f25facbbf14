/**
 * Random member ids: classic members get a hyphenated UUID after their client id, consumer
 * group members (KIP-848) a Uuid in Kafka's base64 form, as Kafka makes them.
 */
import { uuidFromRandomBytes, uuidToBase64 } from "../common/index.js";
import type { Random } from "../ports/index.js";

export /** A random (version 4) UUID in its usual hyphenated text form, as Java's UUID.toString. */
function randomUuidText(random: Random): string {
  const bytes = random.fill(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const parts = [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20)];
  return `${parts.join("-")}-${hex.slice(20)}`;
}

/** A random Uuid as Kafka's Uuid.randomUuid().toString() prints it. */
export function randomUuidBase64(random: Random): string {
  for (;;) {
    const uuid = uuidFromRandomBytes(random.fill(new Uint8Array(16)));
    if (uuid !== undefined) return uuidToBase64(uuid);
  }
}
