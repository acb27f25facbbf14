/**
 * The frames the fuzz tests send: valid requests of every API and version (sample bodies from
 * the schema arbitraries, plus the golden fixtures of real clients), and mutations of them: bits
 * flipped, truncated, extended, lengths rewritten, spliced, and fully random frames. Seeded, so a
 * run repeats on every machine.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { isEncodeError } from "../../src/protocol/codec/encode-error.js";
import { allApiDefinitions, apiCodec } from "../../src/protocol/messages/index.js";
import { messageArbitrary } from "../../src/protocol/schema/schema-arbitrary.testkit.js";
import { encodeRequest } from "../../src/protocol/request.js";

const FIXTURES = new URL("../../../test/golden/fixtures/", import.meta.url);

/** A small seeded PRNG (mulberry32), so the fuzz run is the same on every machine. */
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 0x100000000;
  }
  below(count: number): number {
    return Math.floor(this.next() * count);
  }
  bytes(count: number): Uint8Array {
    const out = new Uint8Array(count);
    for (let index = 0; index < count; index++) out[index] = this.below(256);
    return out;
  }
  pick<T>(items: readonly T[]): T {
    assert.ok(items.length > 0);
    return items[this.below(items.length)] as T;
  }
}

function frameBytes(chunks: readonly Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(chunks).subarray(4));
}

/** Valid request frames: sample bodies for every API and version the codec defines. */
export function sampleCorpus(seed: number): Uint8Array[] {
  const corpus: Uint8Array[] = [];
  for (const definition of allApiDefinitions()) {
    const codec = apiCodec(definition.apiKey);
    assert.ok(codec !== undefined);
    for (let version = definition.minVersion; version <= definition.maxVersion; version++) {
      const arbitrary = messageArbitrary(codec.requestSchema, version, { maxArrayLength: 3 });
      const sampleSeed = seed + definition.apiKey * 100 + version;
      const bodies = fc.sample(arbitrary, { seed: sampleSeed, numRuns: 2 });
      const header = { apiKey: definition.apiKey, apiVersion: version, correlationId: version };
      for (const body of bodies) {
        try {
          corpus.push(frameBytes(encodeRequest({ ...header, clientId: "fuzz" }, body)));
        } catch (error) {
          // A sample the encoder refuses is not a valid request; only valid ones seed the fuzz.
          if (!isEncodeError(error)) throw error;
        }
      }
    }
  }
  return corpus;
}

export function fixtureCorpus(): Uint8Array[] {
  return readdirSync(FIXTURES)
    .filter((file) => file.endsWith(".hex"))
    .map((file) => {
      const hex = readFileSync(new URL(file, FIXTURES), "utf8").replace(/\s+/g, "");
      return Uint8Array.from(Buffer.from(hex, "hex"));
    });
}

const INTERESTING_INT32 = [0, 1, -1, -2, 0x7fffffff, 0x80000000, 0xffff, 0x10000, 0x7fff, 0x8000];

function mutateBits(frame: Uint8Array, prng: Prng): Uint8Array {
  const out = Uint8Array.from(frame);
  const flips = 1 + prng.below(8);
  for (let index = 0; index < flips && out.length > 0; index++) {
    const at = prng.below(out.length);
    out[at] = (out[at] as number) ^ (1 << prng.below(8));
  }
  return out;
}

/** Overwrites 1, 2, 4 or 5 bytes at a random place with a length-like value or a long varint. */
function mutateLength(frame: Uint8Array, prng: Prng): Uint8Array {
  const out = Uint8Array.from(frame);
  if (out.length === 0) return out;
  const at = prng.below(out.length);
  const value = prng.pick(INTERESTING_INT32);
  const view = new DataView(out.buffer);
  const width = prng.pick([1, 2, 4, 5]);
  if (width === 5) out.set([0xff, 0xff, 0xff, 0xff, 0x0f].slice(0, out.length - at), at);
  else if (width === 4 && at + 4 <= out.length) view.setUint32(at, value >>> 0);
  else if (width === 2 && at + 2 <= out.length) view.setUint16(at, value & 0xffff);
  else out[at] = value & 0xff;
  return out;
}

function mutateSplice(frame: Uint8Array, other: Uint8Array, prng: Prng): Uint8Array {
  const cut = prng.below(frame.length + 1);
  const from = prng.below(other.length + 1);
  return Uint8Array.from([...frame.subarray(0, cut), ...other.subarray(from)]);
}

/** A fully random frame, half of them behind a valid API key and version so bodies get read. */
function randomFrame(corpus: readonly Uint8Array[], prng: Prng): Uint8Array {
  const out = prng.bytes(prng.below(prng.below(2) === 0 ? 16 : 300));
  if (out.length >= 4 && prng.below(2) === 0) out.set(prng.pick(corpus).subarray(0, 4), 0);
  return out;
}

export function mutate(corpus: readonly Uint8Array[], prng: Prng): Uint8Array {
  const base = prng.pick(corpus);
  switch (prng.below(7)) {
    case 0:
      return mutateBits(base, prng);
    case 1:
      return base.slice(0, prng.below(base.length + 1));
    case 2:
      return Uint8Array.from([...base, ...prng.bytes(1 + prng.below(32))]);
    case 3:
      return mutateLength(base, prng);
    case 4:
      return mutateSplice(base, prng.pick(corpus), prng);
    case 5:
      return mutateLength(mutateBits(base, prng), prng);
    default:
      return randomFrame(corpus, prng);
  }
}
