/**
 * Base64 for the JSON forms of Kafka messages, on Node's own codec (Buffer is a global, so this
 * needs no import and does no I/O). Uuids print through src/common's uuidToBase64 instead, which
 * is strict about Kafka's one canonical form.
 */

// Padding aside, a body is all standard alphabet or all URL-safe alphabet, never a mix.
const STANDARD_BODY = /^[A-Za-z0-9+/]*$/;
const URL_SAFE_BODY = /^[A-Za-z0-9_-]*$/;

/** Encodes bytes as base64; `url` selects the URL-safe alphabet without padding. */
export function toBase64(bytes: Uint8Array, url = false): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.toString(url ? "base64url" : "base64");
}

/**
 * Decodes base64 in either alphabet, padded or not. Returns null for text that is not base64,
 * so callers can report the error in their own terms.
 */
export function fromBase64(text: string): Uint8Array | null {
  const body = text.replace(/=+$/, "");
  // One character carries 6 bits, less than a byte: no encoder writes a lone trailing one.
  if (body.length % 4 === 1) return null;
  if (!STANDARD_BODY.test(body) && !URL_SAFE_BODY.test(body)) return null;
  // Buffer's decoder would skip characters outside the alphabet; the patterns refused them.
  return Uint8Array.from(Buffer.from(body, "base64"));
}
