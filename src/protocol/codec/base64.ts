const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function lookup(alphabet: string): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

const STANDARD_LOOKUP = lookup(ALPHABET);
const URL_LOOKUP = lookup(URL_ALPHABET);

/** Encodes bytes as base64; `url` selects the URL-safe alphabet without padding. */
export function toBase64(bytes: Uint8Array, url = false): string {
  const alphabet = url ? URL_ALPHABET : ALPHABET;
  let text = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const digits = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let d = 0; d < digits; d++) text += alphabet[(chunk >> (18 - 6 * d)) & 63];
  }
  if (!url) while (text.length % 4 !== 0) text += "=";
  return text;
}

/**
 * Decodes base64 in either alphabet, padded or not. Returns null for text that is not base64,
 * so callers can report the error in their own terms.
 */
export function fromBase64(text: string): Uint8Array | null {
  const body = text.replace(/=+$/, "");
  if (body.length % 4 === 1) return null;
  const table = /[-_]/.test(body) ? URL_LOOKUP : STANDARD_LOOKUP;
  const out = new Uint8Array(Math.floor((body.length * 6) / 8));
  let bits = 0;
  let buffer = 0;
  let at = 0;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    const value = code < 128 ? (table[code] as number) : -1;
    if (value < 0) return null;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}
