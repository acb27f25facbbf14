// The public surface of record batches v2: framing, validation, encoding and decoding,
// control records, compression and CRC-32C.
export {
  compressionTypes,
  encodeAttributes,
  type BatchAttributes,
  type CompressionType,
  type TimestampType,
} from "./attributes.js";
export {
  describeBatchError,
  errorCodeOfBatchError,
  type BatchError,
  type BatchResult,
} from "./batch-error.js";
export {
  BatchLayout,
  CURRENT_MAGIC,
  MIN_BATCH_LENGTH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  NO_TIMESTAMP,
  RecordBatchHeader,
  readBatchHeader,
} from "./batch-header.js";
export {
  completeBatches,
  iterateBatches,
  type BatchEntry,
  type IterateBatchesOptions,
} from "./batch-iterator.js";
export {
  compressRecords,
  decompressRecords,
  decompressionLimitFor,
  MIN_DECOMPRESSION_LIMIT_BYTES,
} from "./compression.js";
export type { DecompressError, DecompressResult } from "./decompress-result.js";
export {
  CONTROL_KEY_VERSION,
  TRANSACTION_MARKER_VERSION,
  controlTypeId,
  decodeControlRecord,
  decodeControlRecordKey,
  decodeTransactionMarker,
  encodeControlRecordKey,
  encodeTransactionMarker,
  encodeTransactionMarkerBatch,
  type ControlRecord,
  type ControlRecordResult,
  type ControlRecordType,
  type KraftControlRecordType,
} from "./control.js";
export { decodeKraftControlValue, type KraftControlValue } from "./control-kraft.js";
export { crc32c } from "./crc32c.js";
export { crc32cTable } from "./crc32c-table.js";
export {
  decodeRecords,
  forEachDecodedRecord,
  type DecodedBatch,
  type DecodedRecord,
} from "./decode.js";
export { encodeBatch, type EncodeBatchOptions, type NewRecord } from "./encode.js";
export type { BatchReadLimits } from "./parse-batch.js";
export type { RecordHeader } from "./record.js";
export { RECORD_BYTES_MAX } from "./record-stream.js";
export { WHOLE_BATCH_BYTES_MAX } from "./inflate-chunks.js";
export {
  validateBatch,
  type AppendOrigin,
  type ValidatedBatch,
  type ValidateOptions,
} from "./validate.js";
