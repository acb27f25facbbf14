import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { DecodeError } from "../src/protocol/codec/decode-error.js";
import type { DecodeErrorKind } from "../src/protocol/codec/decode-error.js";
import { isEncodeError } from "../src/protocol/codec/encode-error.js";
import { allApiDefinitions, apiCodec } from "../src/protocol/messages/index.js";
import { messageArbitrary } from "../src/protocol/schema/schema-arbitrary.testkit.js";
import { decodeRequest, encodeRequest } from "../src/protocol/request.js";
import type { DecodedRequest } from "../src/protocol/request.js";
import { FrameDecoder } from "../src/protocol/framing.js";

/**
 * Bad input never crashes the request decoder. Starting from valid requests of every API and
 * version (sample bodies from the schema arbitraries, plus the golden fixtures of real clients),
 * it flips bits, truncates, extends, rewrites lengths and splices, and adds fully random frames:
 * 100,000 frames per run. Each must come back as a value; a failure must be a typed DecodeError;
 * nothing decoded may hold more elements or bytes than the frame could carry. The seed is fixed
 * so runs repeat; set FUZZ_SEED to explore others. A failure prints the seed and the frame.
 */

const FRAMES_PER_RUN = 100_000;
const SEED_DEFAULT = 0x5eed_f00d;
const SEED_OVERRIDE = process.env["FUZZ_SEED"];
const SEED = SEED_OVERRIDE === undefined ? SEED_DEFAULT : Number(SEED_OVERRIDE);
const FIXTURES = new URL("../../test/golden/fixtures/", import.meta.url);
const DECODE_ERROR_KINDS = new Set<DecodeErrorKind>([
  "truncated",
  "invalid",
  "trailing",
  "tooLarge",
  "unsupportedVersion",
  "unknownApi",
]);

/** A small seeded PRNG (mulberry32), so the fuzz run is the same on every machine. */
class Prng {
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
function sampleCorpus(seed: number): Uint8Array[] {
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

function fixtureCorpus(): Uint8Array[] {
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

function mutate(corpus: readonly Uint8Array[], prng: Prng): Uint8Array {
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

/** Totals over a decoded body: array elements, the longest string and byte-field lengths. */
function measure(value: unknown, totals = { elements: 0, longestString: 0, bytes: 0 }) {
  if (value instanceof Uint8Array) totals.bytes += value.byteLength;
  else if (typeof value === "string") {
    totals.longestString = Math.max(totals.longestString, value.length);
  } else if (Array.isArray(value)) {
    totals.elements += value.length;
    for (const item of value) measure(item, totals);
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) measure(item, totals);
  }
  return totals;
}

/** Defaults of fields a version lacks (a zero uuid is 32 characters) come from no frame byte. */
const DEFAULT_STRING_LENGTH_MAX = 32;

function checkOutcome(frame: Uint8Array, result: DecodedRequest): void {
  switch (result.kind) {
    case "malformed":
      assert.ok(result.error instanceof DecodeError, "a failure is a DecodeError");
      assert.ok(DECODE_ERROR_KINDS.has(result.error.kind), `kind ${result.error.kind}`);
      return;
    case "request": {
      // Every element and byte came from the frame, so none can outnumber its bytes; a string
      // decodes to at most one character per byte.
      const totals = measure(result.body);
      assert.ok(totals.elements <= frame.length, `${totals.elements} elements`);
      assert.ok(totals.bytes <= frame.length, `${totals.bytes} bytes`);
      const stringMax = Math.max(frame.length, DEFAULT_STRING_LENGTH_MAX);
      assert.ok(totals.longestString <= stringMax, `a string of ${totals.longestString}`);
      return;
    }
    case "unsupportedVersion":
    case "unknownApi":
      return;
  }
}

function describeFailure(iteration: number, frame: Uint8Array, cause: unknown): Error {
  const hex = Buffer.from(frame).toString("hex");
  const message =
    `fuzz failed: FUZZ_SEED=${SEED} iteration ${iteration}: ${String(cause)}; ` + `frame ${hex}`;
  return new Error(message, { cause });
}

test(`decodeRequest survives ${FRAMES_PER_RUN} mutated and random frames (seed ${SEED})`, () => {
  const corpus = [...sampleCorpus(SEED), ...fixtureCorpus()];
  assert.ok(corpus.length > 500, `only ${corpus.length} valid frames to start from`);
  for (const frame of corpus) {
    assert.equal(decodeRequest(frame).kind, "request", "every unmutated frame decodes");
  }
  const prng = new Prng(SEED);
  const seen = new Map<string, number>();
  for (let iteration = 0; iteration < FRAMES_PER_RUN; iteration++) {
    const frame = mutate(corpus, prng);
    try {
      const result = decodeRequest(frame);
      checkOutcome(frame, result);
      seen.set(result.kind, (seen.get(result.kind) ?? 0) + 1);
    } catch (error) {
      throw describeFailure(iteration, frame, error);
    }
  }
  // The mutations must reach every outcome, or the fuzz is not exercising the decoder.
  for (const kind of ["request", "malformed", "unsupportedVersion", "unknownApi"]) {
    assert.ok((seen.get(kind) ?? 0) > 0, `no ${kind} outcome in ${JSON.stringify([...seen])}`);
  }
});

test(`the frame decoder survives random streams split at random (seed ${SEED})`, () => {
  const prng = new Prng(SEED ^ 0x9e3779b9);
  const frameBytesMax = 4096;
  for (let run = 0; run < 2000; run++) {
    const stream = prng.bytes(prng.below(64));
    // Half the streams start with a plausible size, so frames do complete.
    if (stream.length >= 4 && prng.below(2) === 0) stream.set([0, 0, 0, prng.below(60)], 0);
    const decoder = new FrameDecoder({ frameBytesMax });
    let at = 0;
    while (at < stream.length) {
      const next = at + 1 + prng.below(stream.length - at);
      const result = decoder.push(stream.subarray(at, next));
      for (const frame of result.frames) assert.ok(frame.length <= frameBytesMax);
      if (result.kind === "failed") assert.equal(decoder.bufferedBytes, 0);
      assert.ok(decoder.bufferedBytes < 4 + frameBytesMax);
      at = next;
    }
  }
});
