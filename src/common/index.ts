export { assert, assertNever, AssertionError } from "./assert.js";
export type {
  BrokerId,
  NodeId,
  Offset,
  LeaderEpoch,
  PartitionIndex,
  ProducerId,
  Uuid,
} from "./ids.js";
export { brokerId, offset, leaderEpoch, partitionIndex, producerId } from "./ids.js";
export { joinPath, dirname, basename } from "./path.js";
export {
  ErrorCode,
  errorName,
  isRetriable,
  isKnownErrorCode,
  errorCodeInfo,
  allErrorCodes,
} from "./error-codes.js";
export type { ErrorName, KnownErrorCode, ErrorCodeInfo } from "./error-codes.js";
export {
  ZERO_UUID,
  ONE_UUID,
  isUuid,
  uuidFromBytes,
  uuidToBytes,
  uuidFromRandomBytes,
  uuidToBase64,
  uuidFromBase64,
} from "./uuid.js";
export { shownText } from "./shown-text.js";
