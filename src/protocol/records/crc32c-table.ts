/**
 * A plain table-driven CRC-32C (Castagnoli, reflected polynomial 0x82F63B78). It is the oracle
 * the native checksum is tested against and the baseline of the benchmark, not the hot path.
 */

const REFLECTED_POLYNOMIAL = 0x82f63b78;

function buildTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index++) {
    let value = index;
    for (let bit = 0; bit < 8; bit++) {
      value = (value & 1) !== 0 ? (value >>> 1) ^ REFLECTED_POLYNOMIAL : value >>> 1;
    }
    table[index] = value >>> 0;
  }
  return table;
}

const table = buildTable();

/**
 * The CRC-32C of `bytes`, continuing from `initial` (the CRC of the bytes before), so that
 * crc32cTable(b, crc32cTable(a)) equals the CRC of a followed by b.
 */
export function crc32cTable(bytes: Uint8Array, initial = 0): number {
  let crc = ~initial >>> 0;
  for (let index = 0; index < bytes.length; index++) {
    crc = (table[(crc ^ (bytes[index] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return ~crc >>> 0;
}
