export { ByteReader } from "./codec/reader.js";
export { ByteChunks, ByteWriter, type BytesValue } from "./codec/writer.js";
export { DecodeError, isDecodeError } from "./codec/decode-error.js";
export type { DecodeErrorKind } from "./codec/decode-error.js";
export { EncodeError, isEncodeError } from "./codec/encode-error.js";
export type { EncodeErrorKind } from "./codec/encode-error.js";
export * from "./messages/index.js";
export * from "./schema/index.js";
// The header types here are the ones the codec uses; they shadow the generated RequestHeader and
// ResponseHeader data schemas of the same names.
export {
  requestHeaderVersion,
  responseHeaderVersion,
  decodeRawTaggedFields,
  encodeRawTaggedFields,
  decodeRequestHeader,
  encodeRequestHeader,
  decodeResponseHeader,
  encodeResponseHeader,
} from "./headers.js";
export type {
  RequestHeaderVersion,
  ResponseHeaderVersion,
  RawTaggedField,
  RequestHeader,
  ResponseHeader,
} from "./headers.js";
export * from "./framing.js";
export * from "./request.js";
export * from "./error-response.js";
export * from "./api-versions.js";
export * from "./records/index.js";
export * from "./acl-types.js";
export * from "./authorized-operations.js";
export * from "./sasl-scram.js";
