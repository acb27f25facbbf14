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
