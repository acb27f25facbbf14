import crc32Native from "@node-rs/crc32";

/**
 * CRC-32C (Castagnoli), the checksum of record batch v2. It runs in native code with SSE4.2 or
 * ARMv8 CRC instructions (docs/decisions/0002); `crc32c-table.ts` is the plain oracle for tests.
 */
export function crc32c(bytes: Uint8Array, initial = 0): number {
  return crc32Native.crc32c(bytes, initial) >>> 0;
}
