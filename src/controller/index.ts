// The controller's pure controls. Each operation is a function of the committed image, the
// request and (where it needs them) the time, soft state and a random source, returning the
// records to propose as one atomic batch and the response to send once they commit.
export * from "./cluster/index.js";
export * from "./features/index.js";
export * from "./topics/index.js";
export * from "./configs/index.js";
export * from "./quotas/index.js";
export * from "./producer-ids/index.js";
export * from "./election/index.js";
export * from "./isr/index.js";
export * from "./reassignment/index.js";
export * from "./scram/index.js";
export * from "./quorum/index.js";
export * from "./apis/index.js";
export { QuorumController } from "./quorum-controller.driver.js";
export type { ControllerState, QuorumControllerOptions } from "./quorum-controller.driver.js";
