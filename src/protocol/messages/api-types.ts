/**
 * The types of each API by its key: `ApiRequest<K>` is what the codec of API `K` decodes a
 * request body to, `ApiResponse<K>` what it decodes a response to (and, as `MessageInput`, what
 * it encodes). Both are indexed accesses of the generated `ApiBodies`, so that code generic in
 * a key keeps that key's types.
 */
import type { ApiCodec } from "./define-api.js";
import type { ApiBodies } from "./generated/api-bodies.js";
import { apiCodecsByKey, type ApiKey } from "./generated/index.js";

export type ApiRequest<K extends ApiKey> = ApiBodies[K]["request"];

export type ApiResponse<K extends ApiKey> = ApiBodies[K]["response"];

export type TypedApiCodec<K extends ApiKey> = ApiCodec<ApiRequest<K>, ApiResponse<K>>;

// The compiler checks here that each generated codec has the types of its key.
const typedCodecs: { readonly [K in ApiKey]: TypedApiCodec<K> } = apiCodecsByKey;

export function typedApiCodec<K extends ApiKey>(apiKey: K): TypedApiCodec<K> {
  return typedCodecs[apiKey];
}
