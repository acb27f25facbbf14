import { test } from "node:test";
import assert from "node:assert/strict";
import { DecodeError } from "../src/protocol/codec/decode-error.js";
import type { DecodeErrorKind } from "../src/protocol/codec/decode-error.js";
import { decodeRequest } from "../src/protocol/request.js";
import type { DecodedRequest } from "../src/protocol/request.js";
import { FrameDecoder } from "../src/protocol/framing.js";
import { fixtureCorpus, mutate, Prng, sampleCorpus } from "./fuzz/frame-mutations.js";

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
const DECODE_ERROR_KINDS = new Set<DecodeErrorKind>([
  "truncated",
  "invalid",
  "trailing",
  "tooLarge",
  "unsupportedVersion",
  "unknownApi",
]);

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
