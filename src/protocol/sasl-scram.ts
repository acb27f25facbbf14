/**
 * The SCRAM messages of RFC 5802 as SASL tokens carry them (SaslAuthenticate's auth bytes):
 * `k=value` attributes, saslnames, nonces and base64, with the XOR of a proof. Shared by the
 * server side (src/broker/security) and the client side (src/client) of the exchange.
 */

export function xor(a: Uint8Array, b: Uint8Array): Uint8Array {
  const result = new Uint8Array(a.length);
  for (let index = 0; index < a.length; index++) {
    result[index] = (a[index] as number) ^ (b[index] as number);
  }
  return result;
}

/** The attributes of a SCRAM message (`k=value,...`); undefined when one is not k=value. */
export function scramAttributes(message: string): Map<string, string> | undefined {
  const attributes = new Map<string, string>();
  for (const part of message.split(",")) {
    if (part.length < 2 || part[1] !== "=") return undefined;
    attributes.set(part[0] as string, part.slice(2));
  }
  return attributes;
}

/** A saslname (RFC 5802 5.1): "=2C" stands for ",", "=3D" for "="; any other "=" is invalid. */
export function decodeSaslName(name: string): string | undefined {
  if (/=(?!2C|3D)/.test(name)) return undefined;
  return name.replaceAll("=2C", ",").replaceAll("=3D", "=");
}

export function encodeSaslName(name: string): string {
  return name.replaceAll("=", "=3D").replaceAll(",", "=2C");
}

const PRINTABLE_NONCE = /^[\x21-\x2b\x2d-\x7e]+$/;

export function isValidNonce(nonce: string): boolean {
  return PRINTABLE_NONCE.test(nonce);
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** Strict base64: undefined for text that is not. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  return Uint8Array.from(Buffer.from(text, "base64"));
}
