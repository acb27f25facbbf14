export { ByteReader } from "./codec/reader.js";
export { ByteWriter } from "./codec/writer.js";
export { DecodeError, isDecodeError } from "./codec/decode-error.js";
export type { DecodeErrorKind } from "./codec/decode-error.js";
export { EncodeError, isEncodeError } from "./codec/encode-error.js";
export type { EncodeErrorKind } from "./codec/encode-error.js";
export * from "./messages/index.js";
export * from "./schema/index.js";
