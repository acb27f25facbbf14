export { ByteReader } from "./codec/reader.js";
export { ByteWriter } from "./codec/writer.js";
export { DecodeError, isDecodeError } from "./codec/decode-error.js";
export type { DecodeErrorKind } from "./codec/decode-error.js";
