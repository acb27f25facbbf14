// Delayed operations of the request path: acks=-1 produces waiting for the high watermark,
// fetches waiting for bytes, and the subscriptions that wake them.
export { DelayedProduce, type ProduceWaitResult } from "./delayed-produce.js";
export {
  DelayedFetch,
  fetchPositionOf,
  type DelayedFetchOptions,
  type DelayedFetchPartition,
} from "./delayed-fetch.js";
export { PartitionWakeups, type Wakeable } from "./partition-wakeups.js";
