// Producer ids for InitProducerId, taken from the blocks the controller grants.
export { PREFETCH_THRESHOLD, ProducerIdBlocks, RETRY_BACKOFF_MS } from "./producer-id-blocks.js";
export type { BlockAnswer, Claim, ProducerIdBlock } from "./producer-id-blocks.js";
export { ProducerIdManager } from "./producer-id-manager.driver.js";
export type { ProducerIdBlockSource } from "./producer-id-manager.driver.js";
