// Broker and controller membership: registration, heartbeats and the fencing scan, the soft
// state of last contacts, unregistration, DescribeCluster, and the hooks to the election code.
export { answerOnly } from "./controller-result.js";
export type { ControllerResult } from "./controller-result.js";
export { DEFAULT_CLUSTER_CONTROL_CONFIG } from "./cluster-control-config.js";
export type { ClusterControlConfig } from "./cluster-control-config.js";
export { BrokerHeartbeats, heartbeatsAfterActivation } from "./broker-heartbeats.js";
export type { BrokerContact } from "./broker-heartbeats.js";
export type { PartitionHooks } from "./partition-hooks.js";
export {
  leadershipCount,
  metadataVersionOf,
  registerBrokerRecord,
  registrationChangeRecord,
  unregisterBrokerRecord,
} from "./cluster-records.js";
export type { RegistrationChange } from "./cluster-records.js";
export { ASSIGN_BROKER_ID, registerBroker } from "./broker-registration.js";
export type { BrokerRegistrationContext, BrokerRegistrationResult } from "./broker-registration.js";
export { handleBrokerHeartbeat } from "./broker-heartbeat.js";
export type { BrokerHeartbeatContext, BrokerHeartbeatResult } from "./broker-heartbeat.js";
export { fenceStaleBrokers, imageAfter } from "./broker-fencing.js";
export type { FencingResult, FencingScan } from "./broker-fencing.js";
export { unregisterBroker } from "./unregister-broker.js";
export type { UnregisterBrokerResult } from "./unregister-broker.js";
export { registerController } from "./controller-registration.js";
export {
  AUTHORIZED_OPERATIONS_OMITTED,
  EndpointType,
  describeCluster,
} from "./describe-cluster.js";
export type { DescribeClusterContext } from "./describe-cluster.js";
