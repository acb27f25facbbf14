/** Record batches for the tests of the append's pure parts. */
import { encodeBatch } from "../../protocol/index.js";

/** A v2 batch of `count` small records based at `baseOffset`. */
export function batch(count: number, baseOffset = 0): Uint8Array {
  const records = Array.from({ length: count }, (_unused, index) => ({
    timestamp: 100 + index,
    key: null,
    value: new Uint8Array(10),
  }));
  return encodeBatch({
    baseOffset,
    partitionLeaderEpoch: -1,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records,
  });
}

/** The parts back to back in one buffer. */
export function join(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
