// Producer ids: AllocateProducerIds hands brokers blocks of ids that are never reused.
export { PRODUCER_ID_BLOCK_SIZE, allocateProducerIds } from "./allocate-producer-ids.js";
