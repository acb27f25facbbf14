import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ByteReader } from "../codec/reader.js";
import { ByteWriter } from "../codec/writer.js";
import { isDecodeError } from "../codec/decode-error.js";
import { messageArbitrary, versionsOf } from "../schema/schema-arbitrary.testkit.js";
import type { MessageSchema } from "../schema/types.js";
import { allApis } from "./generated/index.js";
import type { ApiCodec } from "./define-api.js";

const SEED = 20240611;
const RUNS = 25;

type Direction = "request" | "response";

function codecFor(api: ApiCodec<object, object>, direction: Direction) {
  const schema: MessageSchema = direction === "request" ? api.requestSchema : api.responseSchema;
  const encode = (version: number, value: object): Uint8Array => {
    const writer = new ByteWriter();
    if (direction === "request") api.encodeRequest(version, value, writer);
    else api.encodeResponse(version, value, writer);
    return writer.finish();
  };
  const decode = (version: number, reader: ByteReader): object =>
    direction === "request"
      ? api.decodeRequest(version, reader)
      : api.decodeResponse(version, reader);
  return { schema, encode, decode };
}

function expectDecodeError(run: () => unknown, what: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown !== undefined, `${what}: decoding succeeded`);
  assert.ok(isDecodeError(thrown), `${what}: threw ${String(thrown)}`);
}

for (const direction of ["request", "response"] as const) {
  test(`every API ${direction} round-trips in every version: encode, decode, encode again`, () => {
    for (const api of allApis) {
      const { schema, encode, decode } = codecFor(api, direction);
      for (const version of versionsOf(schema)) {
        fc.assert(
          fc.property(messageArbitrary(schema, version), (value) => {
            const bytes = encode(version, value);
            const decoded = decode(version, new ByteReader(bytes));
            assert.deepStrictEqual(decoded, value);
            assert.deepStrictEqual(encode(version, decoded), bytes);
          }),
          { seed: SEED + api.apiKey * 100 + version, numRuns: RUNS, verbose: true },
        );
      }
    }
  });

  test(`every API ${direction} truncated at any byte fails with a DecodeError`, () => {
    for (const api of allApis) {
      const { schema, encode, decode } = codecFor(api, direction);
      for (const version of versionsOf(schema)) {
        const samples = fc.sample(messageArbitrary(schema, version), {
          seed: SEED - api.apiKey * 100 - version,
          numRuns: 2,
        });
        for (const value of samples) {
          const bytes = encode(version, value);
          for (let cut = 0; cut < bytes.length; cut++) {
            const reader = new ByteReader(bytes, 0, cut);
            expectDecodeError(
              () => decode(version, reader),
              `${schema.name} v${version} cut ${cut}`,
            );
          }
        }
      }
    }
  });

  test(`every API ${direction} decoder throws nothing but DecodeError on random bytes`, () => {
    for (const api of allApis) {
      const { schema, decode } = codecFor(api, direction);
      for (const version of versionsOf(schema)) {
        fc.assert(
          fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
            try {
              decode(version, new ByteReader(bytes));
            } catch (error) {
              assert.ok(isDecodeError(error), `${schema.name} v${version}: ${String(error)}`);
            }
          }),
          { seed: SEED + version, numRuns: 10 },
        );
      }
    }
  });
}
