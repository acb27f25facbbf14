// The public surface of the Kafka API codecs: one typed codec per API (request and response
// bodies in every version Kafka defines) and key-based entry points for the router.
export type { ApiCodec, ApiDefinition } from "./define-api.js";
export { defineApi } from "./define-api.js";
export {
  apiCodec,
  apiDefinition,
  allApiDefinitions,
  decodeRequestBody,
  decodeRequestBodyPrefix,
  encodeRequestBody,
  decodeResponseBody,
  encodeResponseBody,
} from "./registry.js";
export * from "./generated/index.js";
export type { MessageInput, TaggedField } from "../schema/types.js";
export type { ApiRequest, ApiResponse, TypedApiCodec } from "./api-types.js";
export { typedApiCodec } from "./api-types.js";
